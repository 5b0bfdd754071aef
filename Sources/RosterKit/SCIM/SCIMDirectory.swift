import Foundation

/// A SCIM 2.0 service (RFC 7643 and 7644) as a `Directory`, through the same `APIClient`,
/// middleware, retries and deadline as the Roster API. Users here; groups and membership in
/// SCIMDirectory+Groups.swift.
///
/// It keeps each user's resource as last read, so an edit sends only what changed (PATCH) or,
/// on a service without PATCH, the whole resource with every attribute Roster does not know
/// copied back unchanged (PUT); with ETags, every write carries `If-Match`.
public actor SCIMDirectory: Directory {
    public let client: APIClient
    private var knownCapabilities: SCIMCapabilities?
    private var capabilitiesRead: Task<SCIMCapabilities, any Error>?
    /// The search that worked on this service, kept for the session.
    public private(set) var searchMode: SCIMSearchMode = .contains
    /// Each user's resource as last read, for PUT and If-Match. Bounded: the oldest half goes
    /// when it is full (the next edit of one of those reads it again).
    private var resources: [String: JSONValue] = [:]
    private var readOrder: [String] = []
    static let keptResources = 2000
    /// Each group's member ids as last read: later pages of members page through these.
    var groupMemberIDs: [String: [String]] = [:]
    /// Each group's `meta.version` as last read, for `If-Match`.
    var groupVersions: [String: String] = [:]
    /// Each group's turns for PUTs of its members (services without PATCH).
    var groupWriteTurns: [String: WriteTurns] = [:]

    public init(client: APIClient) {
        self.client = client
    }

    // MARK: Capabilities

    /// What the service can do, read once from `/ServiceProviderConfig` and the User schema.
    /// Calls that need them while they are on the way wait for the same read.
    public func capabilities() async throws -> SCIMCapabilities {
        if let knownCapabilities { return knownCapabilities }
        let read = capabilitiesRead ?? Task { try await readCapabilities() }
        capabilitiesRead = read
        do {
            return try await read.value
        } catch {
            capabilitiesRead = nil // asked again next time: the error dialog's retry works
            throw error
        }
    }

    private func readCapabilities() async throws -> SCIMCapabilities {
        // All at once: over a slow link each is a round trip. A service without the enterprise
        // extension answers 404 there: no department or employee number.
        async let schemaRead = try? json(SCIMEndpoint.userSchema)
        async let enterpriseRead = try? json(SCIMEndpoint.enterpriseUserSchema)
        let config = try await json(SCIMEndpoint.serviceProviderConfig)
        let schema = await schemaRead
        let enterprise = await enterpriseRead
        var capabilities = SCIMCapabilities.from(serviceProviderConfig: config, userSchema: schema, enterpriseSchema: enterprise)
        if !capabilities.filter { searchMode = .unavailable }
        if schema == nil { capabilities.hasRoles = false }
        knownCapabilities = capabilities
        return capabilities
    }

    public func traits() async -> DirectoryTraits {
        let capabilities = knownCapabilities ?? SCIMCapabilities()
        return DirectoryTraits(
            dialect: .scim, canSort: capabilities.sort, hasRoles: capabilities.hasRoles, statuses: [.active, .suspended],
            searchLimitation: searchMode == .contains ? nil : searchMode.summary,
            hasGroups: capabilities.filter, canResetPassword: capabilities.changePassword && capabilities.patch,
            attributes: capabilities.attributes)
    }

    // MARK: Reading

    public func listUsers(_ query: UserQuery) async throws -> Page<User> {
        if knownCapabilities == nil, let page = try await firstPageBesideCapabilities(query) { return page }
        let capabilities = try await capabilities()
        while true {
            let filter = try filter(for: query, capabilities: capabilities)
            do {
                return try await collectPage(query, filter: filter, capabilities: capabilities)
            } catch let error as APIError where Self.refusedFilter(error) && filter != nil && searchMode != .unavailable {
                // Remember what this service accepts, and say so (the status line shows it).
                searchMode = searchMode.fallback
                client.configuration.logger.notice("SCIM search falls back: \(searchMode.summary)")
            }
        }
    }

    /// The first list, before the capabilities are known: the page is asked beside them, as
    /// of a service that sorts and filters (most do), and kept when the capabilities say it was
    /// the right question. The first screen then costs one round trip, not three. nil when the
    /// guess was wrong or its answer failed: the caller asks again as the service wants. Not for
    /// a search, whose filter a service may refuse (the caller's fallback handles that).
    private func firstPageBesideCapabilities(_ query: UserQuery) async throws -> Page<User>? {
        guard query.search?.isEmpty ?? true else { return nil }
        let guess = SCIMCapabilities(sort: true, filter: true, hasRoles: true)
        let guessedFilter: String?
        do { guessedFilter = try filter(for: query, capabilities: guess) } catch { return nil }
        async let guessedPage = try? collectPage(query, filter: guessedFilter, capabilities: guess)
        let capabilities = try await capabilities()
        let rightFilter: String?
        do { rightFilter = try filter(for: query, capabilities: capabilities) } catch { return nil }
        guard capabilities.sort == guess.sort, rightFilter == guessedFilter else { return nil }
        return await guessedPage
    }

    public func user(id: String) async throws -> User {
        let response = try await client.response(for: SCIMEndpoint.getUser(id: id))
        return try remember(try Self.decode(response), etag: response.headers["ETag"])
    }

    // MARK: Writing

    public func createUser(_ draft: UserDraft, idempotencyKey: String) async throws -> User {
        let capabilities = try await capabilities()
        let resource = SCIMUserMapping.newResource(from: draft, capabilities: capabilities)
        do {
            let response = try await client.response(for: SCIMEndpoint.createUser(resource, idempotencyKey: idempotencyKey))
            return try remember(try Self.decode(response), etag: response.headers["ETag"])
        } catch let error as APIError where error.requestMayHaveArrived {
            // SCIM services do not replay idempotency keys: look before anyone sends it again.
            // A lookup that fails (or a service that cannot search) knows nothing: say the first failure.
            let userName = draft.userName ?? draft.email
            guard let found = try? await listUsers(UserQuery(perPage: 5, search: userName)) else { throw error }
            throw APIError.createOutcomeUnknown(existing: found.items.first {
                $0.scim?.userName.lowercased() == userName.lowercased() || $0.email.lowercased() == draft.email.lowercased()
            })
        }
    }

    public func updateUser(id: String, with draft: UserDraft) async throws -> User {
        let capabilities = try await capabilities()
        let resource = try await resource(id: id)
        let tag = capabilities.etags ? Self.version(of: resource) : nil
        do {
            if capabilities.patch {
                let operations = SCIMUserMapping.patchOperations(from: draft, comparedWith: resource, capabilities: capabilities)
                guard !operations.isEmpty else { return try Self.user(resource) }
                let response = try await client.response(for: SCIMEndpoint.patchUser(id: id, operations, ifMatch: tag))
                // RFC 7644 section 3.5.2 allows 204 with no body: then read the user again.
                if response.status == 204 || response.body.isEmpty { return try await user(id: id) }
                return try remember(try Self.decode(response), etag: response.headers["ETag"])
            }
            let replaced = SCIMUserMapping.applying(draft, to: resource, capabilities: capabilities)
            let response = try await client.response(for: SCIMEndpoint.replaceUser(id: id, replaced, ifMatch: tag))
            return try remember(try Self.decode(response), etag: response.headers["ETag"])
        } catch let error as APIError {
            if case .preconditionFailed = error {
                // Read the server's version now, so the next attempt starts from it.
                _ = try? await user(id: id)
            }
            throw error
        }
    }

    /// The help desk's reset where the service says it takes a password (`changePassword`):
    /// one PATCH replacing `password`, which SCIM never returns. Only over PATCH: a PUT would
    /// send the whole resource to change one attribute. SCIM has no "must change at the next
    /// logon", so `mustChange` is never asked for (the traits say so).
    public func resetPassword(id: String, to password: String, mustChange: Bool) async throws {
        let capabilities = try await capabilities()
        guard capabilities.changePassword, capabilities.patch else {
            throw APIError.notImplemented(ErrorBody(code: "no_password_reset", message: "This directory cannot reset passwords."))
        }
        let tag = capabilities.etags ? Self.version(of: try await resource(id: id)) : nil
        let change = SCIMUserMapping.PatchOperation(op: "replace", path: "password", value: .string(password))
        let response = try await client.response(for: SCIMEndpoint.patchUser(id: id, [change], ifMatch: tag))
        if response.status == 204 || response.body.isEmpty {
            forget(id)
        } else {
            _ = try remember(try Self.decode(response), etag: response.headers["ETag"])
        }
    }

    public func deleteUser(id: String) async throws {
        let capabilities = try await capabilities()
        let tag = capabilities.etags ? resources[id].flatMap(Self.version) : nil
        _ = try await client.response(for: SCIMEndpoint.deleteUser(id: id, ifMatch: tag))
        forget(id)
    }

    // MARK: Pages

    /// One page of Roster's paging, from as many SCIM requests as it takes: a service may
    /// return fewer than asked (a cap below `count`), omit `totalResults`, or report it wrong.
    private func collectPage(_ query: UserQuery, filter: String?, capabilities: SCIMCapabilities) async throws -> Page<User> {
        let first = (query.page - 1) * query.perPage + 1
        var users: [User] = []
        var reportedTotal: Int?
        var reachedEnd = false
        let sort = capabilities.sort ? Self.sortAttribute(query.sort) : nil
        while users.count < query.perPage {
            let wanted = query.perPage - users.count
            let request = SCIMListRequest(startIndex: first + users.count, count: wanted, filter: filter,
                                          sortBy: sort?.attribute, descending: sort?.descending ?? false)
            let body = try await json(SCIMEndpoint.listUsers(request))
            let resources = body[attribute: "Resources"]?.arrayValue ?? []
            if case .integer(let total)? = body[attribute: "totalResults"] { reportedTotal = Int(total) }
            for resource in resources {
                users.append(try remember(resource, etag: nil))
            }
            let seen = first - 1 + users.count
            if resources.isEmpty { reachedEnd = true; break }
            if resources.count < wanted {
                // Short: the end, or a cap. Only the total (or an empty next answer) tells which.
                if let reportedTotal, seen >= reportedTotal { reachedEnd = true; break }
            }
            if let reportedTotal, seen >= reportedTotal, users.count == query.perPage { break }
        }
        let seen = first - 1 + users.count
        let total: Int
        var isLowerBound = false
        if reachedEnd {
            total = seen // the end was seen: whatever the service said, this is the count
        } else if let reportedTotal, reportedTotal >= seen {
            total = reportedTotal // consistent with what was seen: believed
        } else {
            // No total, or one that is already passed: at least one more than seen.
            total = seen + 1
            isLowerBound = true
        }
        var page = Page(items: users, page: query.page, perPage: query.perPage, total: total)
        page.totalIsLowerBound = isLowerBound
        return page
    }

    private func filter(for query: UserQuery, capabilities: SCIMCapabilities) throws -> String? {
        var parts: [String] = []
        if let text = query.search, !text.isEmpty {
            guard let search = searchMode.filter(for: text) else {
                throw APIError.badRequest(ErrorBody(code: "search_unavailable", message: "This server cannot search users."))
            }
            parts.append(search)
        }
        if let status = query.status, capabilities.filter {
            switch status {
            case .active: parts.append("active eq true")
            case .suspended: parts.append("active eq false")
            default: break
            }
        }
        if let role = query.role, capabilities.filter, capabilities.hasRoles {
            parts.append("roles[value eq \(SCIMFilter.quoted(role.rawValue))]")
        }
        if let group = query.group, !group.isEmpty, capabilities.filter {
            parts.append("groups[value eq \(SCIMFilter.quoted(group))]")
        }
        return SCIMFilter.all(parts)
    }

    /// The SCIM attribute and direction of `sort`; nil for the service's own order (no sortBy).
    static func sortAttribute(_ sort: UserSort) -> (attribute: String, descending: Bool)? {
        switch sort {
        case .directory: nil
        case .name: ("displayName", false)
        case .nameDescending: ("displayName", true)
        case .email: ("emails", false)
        case .emailDescending: ("emails", true)
        case .createdAt: ("meta.created", false)
        case .createdAtDescending: ("meta.created", true)
        }
    }

    static func refusedFilter(_ error: APIError) -> Bool {
        switch error {
        case .badRequest(let body): body?.code == "invalidFilter"
        case .notImplemented: true
        default: false
        }
    }

    // MARK: Resources

    private func resource(id: String) async throws -> JSONValue {
        if let known = resources[id] { return known }
        _ = try await user(id: id)
        guard let read = resources[id] else { throw APIError.notFound(nil) }
        return read
    }

    /// Keeps `resource` (with the response's ETag as its version when the body lacks one) and
    /// returns it as a `User`.
    private func remember(_ resource: JSONValue, etag: String?) throws -> User {
        var resource = resource
        if let etag, Self.version(of: resource) == nil {
            var meta = resource[attribute: "meta"] ?? .object([:])
            meta.set("version", .string(etag))
            resource.set("meta", meta)
        }
        let user = try Self.user(resource)
        if resources.updateValue(resource, forKey: user.id) == nil {
            readOrder.append(user.id)
            if readOrder.count > Self.keptResources {
                let dropped = readOrder.prefix(Self.keptResources / 2)
                for id in dropped { resources[id] = nil }
                readOrder.removeFirst(dropped.count)
            }
        }
        return user
    }

    private func forget(_ id: String) {
        resources[id] = nil
        readOrder.removeAll { $0 == id }
    }

    static func version(of resource: JSONValue) -> String? {
        resource[attribute: "meta"]?[attribute: "version"]?.stringValue
    }

    static func user(_ resource: JSONValue) throws -> User {
        guard let user = SCIMUserMapping.user(from: resource) else {
            throw APIError.decodingFailed(DecodingFailure(path: "id", reason: "is missing", rawBody: ""))
        }
        return user
    }

    func json(_ endpoint: some Endpoint) async throws -> JSONValue {
        try Self.decode(try await client.response(for: endpoint))
    }

    static func decode(_ response: TransportResponse) throws -> JSONValue {
        do {
            return try JSONValue(parsing: response.body)
        } catch {
            throw APIError.decodingFailed(DecodingFailure(error, body: response.body))
        }
    }
}
