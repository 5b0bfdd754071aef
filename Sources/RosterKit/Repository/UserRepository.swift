/// The user directory as the app sees it: five operations, no HTTP. The view models depend
/// on this protocol only, so they run against the real server or an in-memory double alike.
///
/// Failures are `APIError`; a cancelled call throws `CancellationError`.
public protocol UserRepository: Sendable {
    func list(_ query: UserQuery) async throws -> Page<User>
    func get(id: String) async throws -> User
    /// Creates a user. `idempotencyKey` names the user's action: the form passes the same key
    /// when the same draft is submitted again after a failure, so a create whose answer was
    /// lost is not made twice.
    func create(_ draft: UserDraft, idempotencyKey: String) async throws -> User
    func update(id: String, with draft: UserDraft) async throws -> User
    /// Removes the user. A delete whose answer was lost and whose retry finds the user gone
    /// counts as done.
    func delete(id: String) async throws
    /// What this directory can do; asked after the first successful load.
    func traits() async -> DirectoryTraits
    /// Groups whose name contains `text` (case-insensitively), at most `limit`, for a group
    /// filter. Directories without groups answer none.
    func groups(named text: String, limit: Int) async throws -> [GroupReference]
}

extension UserRepository {
    /// Creates a user as a new action, with a fresh idempotency key.
    public func create(_ draft: UserDraft) async throws -> User {
        try await create(draft, idempotencyKey: IdempotencyKey.make())
    }

    /// A directory without groups has none to find.
    public func groups(named text: String, limit: Int) async throws -> [GroupReference] { [] }
}
