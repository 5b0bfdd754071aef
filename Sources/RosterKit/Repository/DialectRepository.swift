/// A `UserRepository` that speaks whichever dialect the server does: fixed by `--api`, or found
/// on first use (`auto`) and kept. The UI starts at once; the first list call waits for the
/// probe, so a SCIM start costs one round trip more at most. A probe that fails (the server is
/// down) is asked again on the next call, so the error dialog's retry works.
public actor DialectRepository: UserRepository {
    public nonisolated let client: APIClient
    public nonisolated let choice: DialectChoice
    public private(set) var dialect: Dialect?
    private var resolved: (any UserRepository)?
    private var probing: Task<Dialect, any Error>?

    public init(client: APIClient, choice: DialectChoice) {
        self.client = client
        self.choice = choice
        switch choice {
        case .roster: dialect = .roster
        case .scim: dialect = .scim
        case .auto: dialect = nil
        }
    }

    /// The repository for the server's dialect, probing first when it is not known yet.
    public func repository() async throws -> any UserRepository {
        if let resolved { return resolved }
        let found: Dialect
        if let dialect {
            found = dialect
        } else {
            let task = probing ?? Task { [client] in try await DialectProbe.detect(client) }
            probing = task
            do {
                found = try await task.value
            } catch {
                probing = nil
                throw error
            }
        }
        if let resolved { return resolved } // another call finished the probe meanwhile
        dialect = found
        let repository: any UserRepository = switch found {
        case .roster: RemoteUserRepository(client: client)
        case .scim: SCIMUserRepository(client: client)
        }
        resolved = repository
        client.configuration.logger.info("speaking \(found.label)")
        return repository
    }

    public func list(_ query: UserQuery) async throws -> Page<User> {
        try await repository().list(query)
    }

    public func get(id: String) async throws -> User {
        try await repository().get(id: id)
    }

    public func create(_ draft: UserDraft, idempotencyKey: String) async throws -> User {
        try await repository().create(draft, idempotencyKey: idempotencyKey)
    }

    public func update(id: String, with draft: UserDraft) async throws -> User {
        try await repository().update(id: id, with: draft)
    }

    public func delete(id: String) async throws {
        try await repository().delete(id: id)
    }

    public func groups(named text: String, limit: Int) async throws -> [GroupReference] {
        try await repository().groups(named: text, limit: limit)
    }

    /// The traits of the dialect found; the Roster API's until the probe has answered.
    public func traits() async -> DirectoryTraits {
        guard let resolved else { return .rosterAPI }
        return await resolved.traits()
    }
}
