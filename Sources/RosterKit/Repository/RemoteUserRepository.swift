/// `UserRepository` over the Roster API.
public struct RemoteUserRepository: UserRepository {
    public let client: APIClient
    /// The features the server's health answer named, once it has answered.
    private let features = FeatureMemo()

    public init(client: APIClient) {
        self.client = client
    }

    /// Everything, with groups when the server's health answer names them (older servers
    /// have none). A server that cannot be asked now is asked again next time.
    public func traits() async -> DirectoryTraits {
        var traits = DirectoryTraits.rosterAPI
        if let known = await features.value {
            traits.hasGroups = known.contains(HealthStatus.groupsFeature)
        } else if let health = try? await health() {
            let named = health.features ?? []
            await features.set(named)
            traits.hasGroups = named.contains(HealthStatus.groupsFeature)
        }
        return traits
    }

    /// `GET /api/v1/groups?q=`: the server matches names as a case-insensitive substring.
    public func groups(named text: String, limit: Int) async throws -> [GroupReference] {
        let query = GroupQuery(perPage: min(max(limit, 1), UserQuery.perPageRange.upperBound), search: text)
        let page: Page<Group> = try await client.send(GroupEndpoint.list(query))
        return page.items.map(\.reference)
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
        await client.learnServerFeatures().contains(HealthStatus.idempotencyKeyFeature)
    }

    /// After a create whose answer was lost: looks the email up and says what it found. When
    /// the lookup fails too, nothing is known, and the first failure is what is said.
    private func outcomeOfLostCreate(_ draft: UserDraft, lost: APIError) async -> APIError {
        let email = draft.email.lowercased()
        guard let page = try? await list(UserQuery(perPage: 20, search: draft.email)) else { return lost }
        return .createOutcomeUnknown(existing: page.items.first { $0.email.lowercased() == email })
    }
}

/// A value learnt once and shared by copies of the repository.
actor FeatureMemo {
    private(set) var value: [String]?
    func set(_ features: [String]) { value = features }
}
