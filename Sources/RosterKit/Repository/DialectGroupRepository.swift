/// A `GroupRepository` for whichever dialect a `DialectRepository` speaks: the Roster API's
/// groups, or SCIM's `/Groups` through the same SCIM user repository (its capabilities and
/// search mode). Made on first use and kept, so SCIM's remembered versions live for the session.
public actor DialectGroupRepository: GroupRepository {
    public nonisolated let users: DialectRepository
    private var resolved: (any GroupRepository)?

    public init(users: DialectRepository) {
        self.users = users
    }

    /// The repository for the server's dialect, probing first when it is not known yet.
    public func repository() async throws -> any GroupRepository {
        if let resolved { return resolved }
        let userRepository = try await users.repository()
        if let resolved { return resolved } // another call got here first
        let made: any GroupRepository = if let scim = userRepository as? SCIMUserRepository {
            SCIMGroupRepository(users: scim)
        } else {
            RemoteGroupRepository(client: users.client)
        }
        resolved = made
        return made
    }

    public func list(_ query: GroupQuery) async throws -> Page<Group> {
        try await repository().list(query)
    }

    public func get(id: String) async throws -> Group {
        try await repository().get(id: id)
    }

    public func create(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        try await repository().create(draft, idempotencyKey: idempotencyKey)
    }

    public func rename(id: String, to draft: GroupDraft) async throws -> Group {
        try await repository().rename(id: id, to: draft)
    }

    public func delete(id: String) async throws {
        try await repository().delete(id: id)
    }

    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> {
        try await repository().members(of: groupID, query)
    }

    public func addMember(_ userID: String, to groupID: String) async throws -> Group {
        try await repository().addMember(userID, to: groupID)
    }

    public func removeMember(_ userID: String, from groupID: String) async throws -> Group {
        try await repository().removeMember(userID, from: groupID)
    }

    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        try await repository().changeMembers(of: groupID, change)
    }
}
