/// The directory's groups as the app sees them: listing, one group, create, rename, delete, and
/// who is in it. Like `UserRepository`, no HTTP shows through, so the models run against the
/// real server or an in-memory double alike.
///
/// Failures are `APIError`; a cancelled call throws `CancellationError`.
public protocol GroupRepository: Sendable {
    /// One page of groups, searched by name and sorted as `query` says.
    func list(_ query: GroupQuery) async throws -> Page<Group>
    func get(id: String) async throws -> Group
    /// Creates a group. `idempotencyKey` names the person's action: the same key goes with
    /// every retry of it.
    func create(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group
    func rename(id: String, to draft: GroupDraft) async throws -> Group
    /// Removes the group and its memberships (never its users).
    func delete(id: String) async throws
    /// One page of the group's members, in `query`'s page and size. Where the dialect can, the
    /// search and sort apply too.
    func members(of groupID: String, _ query: UserQuery) async throws -> Page<User>
    /// Puts one user in the group; already a member changes nothing.
    func addMember(_ userID: String, to groupID: String) async throws -> Group
    /// Takes one user out of the group; not a member changes nothing.
    func removeMember(_ userID: String, from groupID: String) async throws -> Group
    /// Adds and removes many users in one call, all or nothing (at most
    /// `MembershipChange.maximumIDs` ids).
    func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group
}

extension GroupRepository {
    /// Creates a group as a new action, with a fresh idempotency key.
    public func create(_ draft: GroupDraft) async throws -> Group {
        try await create(draft, idempotencyKey: IdempotencyKey.make())
    }
}
