/// The directory at a server's URL, in whichever dialect it speaks: fixed by `--api`, or found
/// on first use (`auto`) and kept. This is the one place the dialect is decided. The UI starts
/// at once; the first call waits for the probe, so a SCIM start costs one round trip more at
/// most. A probe that fails (the server is down) is asked again on the next call, so the error
/// dialog's retry works.
public actor RemoteDirectory: Directory {
    public nonisolated let client: APIClient
    public nonisolated let choice: DialectChoice
    public private(set) var dialect: Dialect?
    private var resolved: (any Directory)?
    private var probing: Task<Dialect, any Error>?
    /// The directory of each dialect, made once: the one the probe finds is kept, with what the
    /// first list asked of it beside the probe (a SCIM service's capabilities).
    private var prefetch = FirstPagePrefetch()
    private lazy var candidates = (roster: RosterAPIDirectory(client: client), scim: SCIMDirectory(client: client))
    /// With `auto`: what this server spoke when last found out (`KnownDialects`). The first
    /// list goes out in it alone; an answer that is not that dialect's list clears it, and the
    /// probe decides.
    private var lastFound: Dialect?
    private let foundAtStart: Dialect?
    /// Told the dialect the probe found, when it is not `lastFound`: to keep it for next time.
    private let onFound: (@Sendable (Dialect) -> Void)?

    public init(client: APIClient, choice: DialectChoice, lastFound: Dialect? = nil, onFound: (@Sendable (Dialect) -> Void)? = nil) {
        self.client = client
        self.choice = choice
        switch choice {
        case .roster: dialect = .roster
        case .scim: dialect = .scim
        case .auto: dialect = nil
        }
        // LDAP is never found at an HTTP URL; a file that says so is not believed.
        let usable = choice == .auto && lastFound != .ldap ? lastFound : nil
        self.lastFound = usable
        self.foundAtStart = usable
        self.onFound = onFound
    }

    /// The directory for the server's dialect, probing first when it is not known yet.
    public func resolve() async throws -> any Directory {
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
        let directory = try candidate(found)
        settle(on: found, directory)
        if choice == .auto, found != foundAtStart { onFound?(found) }
        return directory
    }

    private func candidate(_ dialect: Dialect) throws -> any Directory {
        switch dialect {
        case .roster: candidates.roster
        case .scim: candidates.scim
        case .ldap:
            // The probe speaks HTTP and never finds LDAP: an LDAP server is an ldap:// URL (LDAPDirectory).
            throw APIError.invalidRequest("An LDAP directory is reached by an ldap:// or ldaps:// URL.")
        }
    }

    private func settle(on found: Dialect, _ directory: any Directory, note: String = "") {
        dialect = found
        resolved = directory
        client.configuration.logger.info("speaking \(found.label)\(note)")
    }

    /// The traits of the dialect found; the Roster API's until the probe has answered.
    public func traits() async -> DirectoryTraits {
        guard let resolved else { return .rosterAPI }
        return await resolved.traits()
    }

    /// Over a link of 100 ms, the first page's round trips then overlap the app's own start
    /// (settings, journal, terminal): `make bench`'s startup figures.
    public func prefetchUsers(_ query: UserQuery) {
        prefetch.start(query) { try await self.fetchUsers(query) }
    }

    public func listUsers(_ query: UserQuery) async throws -> Page<User> {
        if let page = prefetch.take(for: query) { return try await page.value }
        return try await fetchUsers(query)
    }

    private func fetchUsers(_ query: UserQuery) async throws -> Page<User> {
        guard resolved == nil, dialect == nil else { return try await resolve().listUsers(query) }
        if let guess = lastFound, let page = try await firstList(query, in: guess) { return page }
        // The first list with the dialect unknown: asked in both dialects beside the probe (all
        // reads), and the answer of the dialect found is kept. Over a slow link the first
        // screen then waits for one round trip, not the probe's and then the list's.
        let (roster, scim) = candidates
        async let rosterPage = Self.outcome { try await roster.listUsers(query) }
        async let scimPage = Self.outcome { try await scim.listUsers(query) }
        let directory = try await resolve()
        switch dialect {
        case .roster?: return try await rosterPage.get()
        case .scim?: return try await scimPage.get()
        default: return try await directory.listUsers(query)
        }
    }

    /// The first list in the dialect this server spoke last time, alone: its answer settles the
    /// dialect. Nil when the answer was not that dialect's list (a 404, a body of another
    /// shape): the guess is dropped and the probe decides. A failure that says nothing of the
    /// dialect (the server down, the token refused) is thrown, and the retry guesses again.
    private func firstList(_ query: UserQuery, in guess: Dialect) async throws -> Page<User>? {
        let directory = try candidate(guess)
        let page: Page<User>
        do {
            page = try await directory.listUsers(query)
        } catch let error as APIError where !error.saysNothingOfTheDialect {
            lastFound = nil
            client.configuration.logger.info("not \(guess.label) any more (\(error)): asking which dialect")
            return nil
        }
        lastFound = nil
        guard resolved == nil else { return dialect == guess ? page : try await resolve().listUsers(query) }
        settle(on: guess, directory, note: " (as when last found out)")
        return page
    }

    private static func outcome<Value: Sendable>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    public func history(ofUser id: String) async throws -> [UserChange] {
        try await resolve().history(ofUser: id)
    }

    public func user(id: String) async throws -> User {
        try await resolve().user(id: id)
    }

    public func createUser(_ draft: UserDraft, idempotencyKey: String) async throws -> User {
        try await resolve().createUser(draft, idempotencyKey: idempotencyKey)
    }

    public func updateUser(id: String, with draft: UserDraft) async throws -> User {
        try await resolve().updateUser(id: id, with: draft)
    }

    public func updateUser(_ original: User, with draft: UserDraft) async throws -> User {
        try await resolve().updateUser(original, with: draft)
    }

    public func deleteUser(id: String) async throws {
        try await resolve().deleteUser(id: id)
    }

    public func listGroups(_ query: GroupQuery) async throws -> Page<Group> {
        try await resolve().listGroups(query)
    }

    public func group(id: String) async throws -> Group {
        try await resolve().group(id: id)
    }

    public func createGroup(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        try await resolve().createGroup(draft, idempotencyKey: idempotencyKey)
    }

    public func renameGroup(id: String, to draft: GroupDraft) async throws -> Group {
        try await resolve().renameGroup(id: id, to: draft)
    }

    public func deleteGroup(id: String) async throws {
        try await resolve().deleteGroup(id: id)
    }

    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> {
        try await resolve().members(of: groupID, query)
    }

    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        try await resolve().changeMembers(of: groupID, change)
    }

    public func resetPassword(id: String, to password: String, mustChange: Bool) async throws {
        try await resolve().resetPassword(id: id, to: password, mustChange: mustChange)
    }

    public func unlock(id: String) async throws -> Bool {
        try await resolve().unlock(id: id)
    }
}
