/// `UserRepository` over the Roster API.
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

    /// Sends the create with its idempotency key. A server that replays keys (its health
    /// answer says so) gets the same request again when the answer is lost; any other server
    /// does not, and the user is told what a lookup by email found instead.
    public func create(_ draft: UserDraft, idempotencyKey: String) async throws -> User {
        let replays = await learnWhetherKeysAreReplayed()
        do {
            return try await client.send(UserEndpoint.create(draft, idempotencyKey: idempotencyKey))
        } catch let error as APIError where error.requestMayHaveArrived && !replays {
            throw await outcomeOfLostCreate(draft, lost: error)
        }
    }

    public func update(id: String, with draft: UserDraft) async throws -> User {
        try await client.send(UserEndpoint.update(id: id, draft))
    }

    public func delete(id: String) async throws {
        _ = try await client.response(for: UserEndpoint.delete(id: id))
    }

    /// Whether the server answers at all (no token needed).
    public func health() async throws -> HealthStatus {
        try await client.send(UserEndpoint.health)
    }

    /// Asks the server once; a server that cannot be asked now is taken not to replay keys,
    /// and asked again next time.
    private func learnWhetherKeysAreReplayed() async -> Bool {
        if let known = await client.serverReplaysIdempotencyKeys { return known }
        guard let health = try? await health() else { return false }
        let replays = health.features?.contains(HealthStatus.idempotencyKeyFeature) ?? false
        await client.setServerReplaysIdempotencyKeys(replays)
        return replays
    }

    /// After a create whose answer was lost: looks the email up and says what it found. When
    /// the lookup fails too, nothing is known, and the first failure is what is said.
    private func outcomeOfLostCreate(_ draft: UserDraft, lost: APIError) async -> APIError {
        let email = draft.email.lowercased()
        guard let page = try? await list(UserQuery(perPage: 20, search: draft.email)) else { return lost }
        return .createOutcomeUnknown(existing: page.items.first { $0.email.lowercased() == email })
    }
}
