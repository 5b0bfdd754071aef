/// `GroupRepository` over the Roster API's `/api/v1/groups` (docs/design.md, "Groups and membership").
public struct RemoteGroupRepository: GroupRepository {
    public let client: APIClient

    public init(client: APIClient) {
        self.client = client
    }

    public func list(_ query: GroupQuery) async throws -> Page<Group> {
        try await client.send(GroupEndpoint.list(query))
    }

    public func get(id: String) async throws -> Group {
        try await client.send(GroupEndpoint.get(id: id))
    }

    /// A lost answer is sent again only where the server says it replays group keys
    /// (`HealthStatus.groupIdempotencyKeyFeature`, asked once); group names are unique, so a
    /// create that landed twice is impossible either way.
    public func create(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        _ = await client.learnServerFeatures()
        return try await client.send(GroupEndpoint.create(draft, idempotencyKey: idempotencyKey))
    }

    public func rename(id: String, to draft: GroupDraft) async throws -> Group {
        try await client.send(GroupEndpoint.rename(id: id, draft))
    }

    public func delete(id: String) async throws {
        _ = try await client.response(for: GroupEndpoint.delete(id: id))
    }

    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> {
        try await client.send(GroupEndpoint.members(groupID: groupID, query))
    }

    public func addMember(_ userID: String, to groupID: String) async throws -> Group {
        try await client.send(GroupEndpoint.setMember(groupID: groupID, userID: userID, isMember: true))
    }

    public func removeMember(_ userID: String, from groupID: String) async throws -> Group {
        try await client.send(GroupEndpoint.setMember(groupID: groupID, userID: userID, isMember: false))
    }

    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        try await client.send(GroupEndpoint.changeMembers(groupID: groupID, change))
    }
}
