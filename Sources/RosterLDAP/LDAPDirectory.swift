import RosterKit
import Foundation

/// An LDAP directory (OpenLDAP, Active Directory) as a `Directory`, over OpenLDAP's libldap
/// (`LDAPSession`). Users here; groups and membership in LDAPDirectory+Groups.swift. A user's
/// id is its DN, so membership (`member` values) names users by their ids.
public actor LDAPDirectory: Directory {
    let session: LDAPSession
    public nonisolated let configuration: LDAPConfiguration
    private var knownSchema: LDAPSchema?
    /// Whether `knownSchema` holds the folders for new entries (`schemaForNewEntries`).
    private var newEntryParentsAreKnown = false
    private var prefetch = FirstPagePrefetch()
    /// Whether people carry `memberOf` (AD always; OpenLDAP with the memberof overlay): asked once.
    var memberOfIsKept: Bool?

    public init(configuration: LDAPConfiguration) {
        self.configuration = configuration
        session = LDAPSession(configuration)
    }

    // MARK: The server

    /// What the server said of itself (connecting first when needed).
    public func rootDSE() async throws -> LDAPRootDSE {
        try await mapped { try await session.rootDSE() }
    }

    func schema() async throws -> LDAPSchema {
        if let knownSchema { return knownSchema }
        let schema = try Self.schema(of: try await rootDSE(), configuration: configuration)
        return remember(schema)
    }

    /// The schema a root DSE implies with the settings' overrides.
    private static func schema(of root: LDAPRootDSE, configuration: LDAPConfiguration) throws -> LDAPSchema {
        guard let base = configuration.schema.peopleBase ?? root.defaultBase else {
            throw APIError.badRequest(ErrorBody(code: "no_base", message: "The server names no naming context: set ldap.peopleBase in the settings."))
        }
        return LDAPSchema(vendor: root.vendor, base: base, settings: configuration.schema)
    }

    /// Keeps the first schema resolved (another call may have resolved one meanwhile).
    @discardableResult
    private func remember(_ schema: LDAPSchema) -> LDAPSchema {
        if let knownSchema { return knownSchema }
        knownSchema = schema
        return schema
    }

    /// The schema with the folders new entries go to: the usual folder where the tree has one and
    /// the settings name no base. Looked up at the first create, not before the first list.
    func schemaForNewEntries() async throws -> LDAPSchema {
        var schema = try await schema()
        if newEntryParentsAreKnown { return schema }
        if configuration.schema.peopleBase == nil, let found = await firstExisting(schema.usualPeopleParents) {
            schema.newPeopleParent = found
        }
        if configuration.schema.groupsBase == nil, let found = await firstExisting(schema.usualGroupsParents) {
            schema.newGroupsParent = found
        }
        if newEntryParentsAreKnown, let knownSchema { return knownSchema } // another call resolved them meanwhile
        newEntryParentsAreKnown = true
        knownSchema = schema
        return schema
    }

    public func traits() async -> DirectoryTraits {
        let root = session.rootDSEIfKnown
        return DirectoryTraits(dialect: .ldap, canSort: root?.offersSort ?? false, hasRoles: false, statuses: [.active, .suspended],
                               hasGroups: true, canResetPassword: true,
                               canRequirePasswordChange: root?.vendor == .activeDirectory, canUnlock: true,
                               attributes: UserAttribute.allCases)
    }

    private func firstExisting(_ dns: [String]) async -> String? {
        for dn in dns {
            let count = try? await session.run("read", mayRepeat: true) { connection, cancel in
                try connection.search(base: dn, scope: .base, filter: "(objectClass=*)", attributes: ["1.1"], cancel: cancel).entries.count
            }
            if count == 1 { return dn }
        }
        return nil
    }

    // MARK: Reading

    /// Connect, StartTLS, bind, the root DSE and the first page, while the app sets up its
    /// journal and terminal. The password is known by now: a prompt is answered before the
    /// launcher gets here.
    public func prefetchUsers(_ query: UserQuery) {
        prefetch.start(query) { try await self.fetchUsers(query) }
    }

    public func listUsers(_ query: UserQuery) async throws -> Page<User> {
        if let page = prefetch.take(for: query) { return try await page.value }
        return try await fetchUsers(query)
    }

    /// One call on the session's thread: before the first list it also connects, and the
    /// schema comes from the root DSE just read there, not from a trip back to this actor and a
    /// second call between the root DSE and the page (docs/benchmarks.md, "An LDAP directory,
    /// the first screen a third time").
    private func fetchUsers(_ query: UserQuery) async throws -> Page<User> {
        let known = knownSchema
        let session = session
        let configuration = configuration
        let offset = (query.page - 1) * query.perPage
        let size = query.perPage
        let (slice, schema) = try await mapped {
            try await session.run("search", mayRepeat: true) { connection, cancel in
                // Connected and bound by now, so the root DSE is known.
                let root = session.rootDSEIfKnown ?? LDAPRootDSE(LDAPEntry(dn: ""))
                let schema = try known ?? Self.schema(of: root, configuration: configuration)
                let slice = try LDAPPager.page(
                    connection, base: schema.peopleBase, filter: Self.userFilter(query, schema: schema),
                    attributes: schema.personAttributes, sortKey: root.offersSort ? schema.sortKey(query.sort) : nil,
                    offset: offset, size: size, paging: root.offersPaging, estimate: LDAPPager.Estimate(vendor: root.vendor),
                    cancel: cancel
                ) { LDAPUserMapping.user(from: $0, schema: schema) }
                return (slice, schema)
            }
        }
        remember(schema)
        return LDAPPager.rosterPage(slice, query: query.page, perPage: query.perPage)
    }

    public func user(id: String) async throws -> User {
        let schema = try await schema()
        return LDAPUserMapping.user(from: try await entry(id, attributes: schema.personAttributes), schema: schema)
    }

    /// The filter for a list: people, the search as one substring filter over name, login and
    /// email (every value escaped), the status and the group.
    static func userFilter(_ query: UserQuery, schema: LDAPSchema) -> String {
        var parts = [schema.personFilter]
        if let text = query.search?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            let attributes = [schema.nameAttribute, "cn", schema.loginAttribute, schema.emailAttribute]
            var unique: [String] = []
            for attribute in attributes where !unique.contains(where: { $0.lowercased() == attribute.lowercased() }) { unique.append(attribute) }
            parts.append(LDAPFilter.any(unique.map { LDAPFilter.contains($0, text) }))
        }
        switch (query.status, schema.status) {
        case (.active?, .passwordPolicy):
            parts.append(LDAPFilter.not(LDAPFilter.present("pwdAccountLockedTime")))
        case (.suspended?, .passwordPolicy):
            parts.append(LDAPFilter.equals("pwdAccountLockedTime", LDAPSchema.permanentLock))
        case (.active?, .userAccountControl):
            // LDAP_MATCHING_RULE_BIT_AND: bit 2 unset.
            parts.append("(!(userAccountControl:1.2.840.113556.1.4.803:=2))")
        case (.suspended?, .userAccountControl):
            parts.append("(userAccountControl:1.2.840.113556.1.4.803:=2)")
        default:
            break
        }
        if let group = query.group, !group.isEmpty {
            parts.append(LDAPFilter.equals("memberOf", group))
        }
        return LDAPFilter.all(parts)
    }

    // MARK: Writing

    public func createUser(_ draft: UserDraft, idempotencyKey: String) async throws -> User {
        let schema = try await schemaForNewEntries()
        let (dn, attributes) = LDAPUserMapping.newEntry(from: draft, schema: schema)
        do {
            try await session.run("add", mayRepeat: false) { connection, cancel in try connection.add(dn: dn, attributes, cancel: cancel) }
        } catch let error as LDAPResultError where error.connectionIsGone || error.code == LDAPResultError.timeout {
            // The add may have landed: look before anyone sends it again.
            let existing = try? await user(id: dn)
            throw APIError.createOutcomeUnknown(existing: existing)
        } catch {
            throw LDAPErrorMapping.apiError(error, host: configuration.host, schema: schema)
        }
        if schema.vendor == .activeDirectory, draft.status != .suspended {
            // AD creates accounts disabled; enabling is a second step, which AD refuses while
            // the account has no password its policy accepts: then it stays disabled, and says so.
            let enable = LDAPUserMapping.statusModifications(suspend: false, entry: LDAPEntry(dn: dn, attributes: ["useraccountcontrol": ["514"]]),
                                                             schema: schema)
            do {
                try await modify(dn, enable, schema: schema)
            } catch {
                configuration.logger.notice("the new account stays disabled until it has a password: \(error.localizedDescription)")
            }
        }
        return try await user(id: dn)
    }

    public func updateUser(id: String, with draft: UserDraft) async throws -> User {
        let schema = try await schema()
        let current = try await entry(id, attributes: schema.personAttributes)
        let changes = try LDAPUserMapping.modifications(from: draft, comparedWith: current, schema: schema)
        guard !changes.isEmpty else { return LDAPUserMapping.user(from: current, schema: schema) }
        try await modify(id, changes, schema: schema)
        return try await user(id: id)
    }

    public func deleteUser(id: String) async throws {
        let schema = try await schema()
        try await mapped(schema) {
            try await session.run("delete", mayRepeat: false) { connection, cancel in try connection.delete(dn: id, cancel: cancel) }
        }
    }

    // MARK: The help desk's actions

    /// Sets the user's password: the password modify extended operation (RFC 3062) where the
    /// server offers it. The password is never logged. `mustChange` is AD's `pwdLastSet: 0`,
    /// in the same modify; elsewhere the server's password policy decides.
    public func resetPassword(id: String, to password: String, mustChange: Bool = false) async throws {
        let schema = try await schema()
        if schema.vendor == .activeDirectory {
            // AD: a replace of unicodePwd, the password quoted in UTF-16LE, over TLS only.
            let value = Data(("\"" + password + "\"").utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            var changes = [LDAPModification(.replace, "unicodePwd", data: [value])]
            if mustChange { changes.append(LDAPModification(.replace, "pwdLastSet", ["0"])) }
            try await modify(id, changes, schema: schema)
            return
        }
        try await mapped(schema) {
            try await session.run("password modify", mayRepeat: false) { connection, cancel in
                try connection.setPassword(dn: id, to: password, cancel: cancel)
            }
        }
    }

    /// Clears a lockout after failed logins (ppolicy's `pwdAccountLockedTime`, AD's
    /// `lockoutTime: 0`); an account suspended on purpose stays suspended.
    @discardableResult
    public func unlock(id: String) async throws -> Bool {
        let schema = try await schema()
        let current = try await entry(id, attributes: schema.personAttributes)
        guard LDAPUserMapping.status(of: current, schema: schema) == .unknown("locked") else { return false }
        let change = switch schema.status {
        case .passwordPolicy: LDAPModification(.delete, "pwdAccountLockedTime", [String]())
        case .userAccountControl: LDAPModification(.replace, "lockoutTime", ["0"])
        }
        try await modify(id, [change], schema: schema)
        return true
    }

    // MARK: Plumbing

    func entry(_ dn: String, attributes: [String]) async throws -> LDAPEntry {
        let schema = try await schema()
        let found = try await mapped(schema) {
            try await session.run("read", mayRepeat: true) { connection, cancel in
                try connection.search(base: dn, scope: .base, filter: "(objectClass=*)", attributes: attributes, cancel: cancel).entries.first
            }
        }
        guard let found else { throw APIError.notFound(nil) }
        return found
    }

    func modify(_ dn: String, _ changes: [LDAPModification], schema: LDAPSchema) async throws {
        try await mapped(schema) {
            try await session.run("modify", mayRepeat: false) { connection, cancel in try connection.modify(dn: dn, changes, cancel: cancel) }
        }
    }

    /// `body`, its LDAP failures said as `APIError`s.
    func mapped<T>(_ schema: LDAPSchema? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw LDAPErrorMapping.apiError(error, host: configuration.host, schema: schema ?? knownSchema)
        }
    }
}
