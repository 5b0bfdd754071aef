/// `UserRepository` over the HTTP API.
public struct RemoteUserRepository: UserRepository {
    public let client: APIClient

    public init(client: APIClient) {
        self.client = client
    }

    public func list(_ query: UserQuery) async throws -> Page<User> {
        try await client.send(UserEndpoint.list(query))
    }

    public func get(id: String) async throws -> User {
        try await client.send(UserEndpoint.get(id: id))
    }

    public func create(_ draft: UserDraft) async throws -> User {
        try await client.send(UserEndpoint.create(draft))
    }

    public func update(id: String, with draft: UserDraft) async throws -> User {
        try await client.send(UserEndpoint.update(id: id, draft))
    }

    public func delete(id: String) async throws -> User {
        try await client.send(UserEndpoint.delete(id: id))
    }

    /// Whether the server answers at all (no token needed).
    public func health() async throws -> HealthStatus {
        try await client.send(UserEndpoint.health)
    }
}
