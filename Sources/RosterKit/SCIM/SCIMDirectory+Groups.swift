import Foundation

/// A SCIM service's groups: `/Groups`, with membership changed by `PATCH /Groups/{id}` (on a
/// service without PATCH, the group as read with its members changed is PUT back with
/// `If-Match`). A user's `groups` is read-only in SCIM, so nothing here writes users.
///
/// Members are read from the group itself, not by filtering users on `groups`: services
/// (scim2-server among them) need not keep a user's `groups` in step with the groups' members.
/// A page of members is the page's slice of the group's member ids, fetched in one request
/// (`id eq … or id eq …`), in the group's order. A member search is not sent.
extension SCIMDirectory {
    // MARK: Reading

    public func listGroups(_ query: GroupQuery) async throws -> Page<Group> {
        let capabilities = try await capabilities()
        var filter: String?
        if let text = query.search, !text.isEmpty {
            guard capabilities.filter, let found = searchMode.groupFilter(for: text) else {
                throw APIError.badRequest(ErrorBody(code: "search_unavailable", message: "This server cannot search groups."))
            }
            filter = found
        }
        let sort = capabilities.sort ? Self.sortAttribute(query.sort) : nil
        let first = (query.page - 1) * query.perPage + 1
        let request = SCIMListRequest(startIndex: first, count: query.perPage, filter: filter, sortBy: sort?.0, descending: sort?.1 ?? false)
        let body = try await json(SCIMEndpoint.listGroups(request))
        let resources = body[attribute: "Resources"]?.arrayValue ?? []
        let groups = resources.compactMap { rememberGroup($0, etag: nil) }
        let seen = first - 1 + groups.count
        var page = Page(items: groups, page: query.page, perPage: query.perPage, total: seen)
        if case .integer(let total)? = body[attribute: "totalResults"], Int(total) >= seen {
            page.total = Int(total)
        } else if groups.count == query.perPage {
            // No total, and a full page: there may be more.
            page.total = seen + 1
            page.totalIsLowerBound = true
        }
        return page
    }

    public func group(id: String) async throws -> Group {
        try await read(id: id).group
    }

    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> {
        let ids: [String]
        if query.page > 1, let known = groupMemberIDs[groupID] {
            ids = known
        } else {
            ids = try await read(id: groupID).memberIDs
        }
        let start = (query.page - 1) * query.perPage
        let slice = start < ids.count ? Array(ids[start..<min(ids.count, start + query.perPage)]) : []
        let found = try await usersWithIDs(slice)
        return Page(items: slice.compactMap { found[$0] }, page: query.page, perPage: query.perPage, total: ids.count)
    }

    // MARK: Writing

    public func createGroup(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        let response = try await client.response(for: SCIMGroupEndpoint.create(SCIMGroupMapping.newResource(draft.normalized),
                                                                                idempotencyKey: idempotencyKey))
        return try decodeGroup(response)
    }

    public func renameGroup(id: String, to draft: GroupDraft) async throws -> Group {
        let capabilities = try await capabilities()
        let name = JSONValue.string(draft.normalized.name)
        do {
            if capabilities.patch {
                let operation = JSONValue.object(["op": .string("replace"), "path": .string("displayName"), "value": name])
                return try await patch(id: id, [operation], ifMatch: capabilities.etags ? groupVersions[id] : nil)
            }
            var resource = try await read(id: id).resource
            resource.set("displayName", name)
            resource.set("meta", nil)
            return try await replace(id: id, resource, capabilities: capabilities)
        } catch APIError.preconditionFailed(let body) {
            // Someone changed it meanwhile: read their version, so trying again starts from it.
            _ = try? await read(id: id)
            throw APIError.preconditionFailed(body)
        }
    }

    public func deleteGroup(id: String) async throws {
        let capabilities = try await capabilities()
        _ = try await client.response(for: SCIMGroupEndpoint.delete(id: id, ifMatch: capabilities.etags ? groupVersions[id] : nil))
        groupMemberIDs[id] = nil
        groupVersions[id] = nil
    }

    /// PATCH without `If-Match`: adding and removing members commute with anyone else's
    /// change, so another client's edit is no reason to refuse. A service without PATCH gets
    /// the group as just read with the change applied, PUT with `If-Match`: never a partial
    /// member list. When someone changed the group in between (412), it is read and the change
    /// applied again, since a membership change commutes. This directory's own PUTs to one
    /// group take turns, so a bulk run's parallel calls cannot undo each other even where the
    /// service has no ETags.
    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        let capabilities = try await capabilities()
        if capabilities.patch {
            return try await patch(id: groupID, SCIMGroupMapping.membershipOperations(change), ifMatch: nil)
        }
        let turns = groupWriteTurns[groupID] ?? WriteTurns()
        groupWriteTurns[groupID] = turns
        return try await turns.inTurn {
            var attempt = 1
            while true {
                let resource = try await read(id: groupID).resource
                do {
                    return try await replace(id: groupID, SCIMGroupMapping.applying(change, to: resource), capabilities: capabilities)
                } catch APIError.preconditionFailed(let body) {
                    guard attempt < Self.membershipPutAttempts else { throw APIError.preconditionFailed(body) }
                    attempt += 1
                }
            }
        }
    }

    /// How often a PUT of members is tried against a group others keep changing.
    static let membershipPutAttempts = 5

    // MARK: Requests

    private func patch(id: String, _ operations: [JSONValue], ifMatch: String?) async throws -> Group {
        let response = try await client.response(for: SCIMGroupEndpoint.patch(id: id, operations, ifMatch: ifMatch))
        // RFC 7644 section 3.5.2 allows 204 with no body (scim2-server answers so): read it.
        if response.status == 204 || response.body.isEmpty { return try await group(id: id) }
        return try decodeGroup(response)
    }

    private func replace(id: String, _ resource: JSONValue, capabilities: SCIMCapabilities) async throws -> Group {
        let tag = capabilities.etags ? groupVersions[id] : nil
        return try decodeGroup(try await client.response(for: SCIMGroupEndpoint.replace(id: id, resource, ifMatch: tag)))
    }

    private func read(id: String) async throws -> (resource: JSONValue, group: Group, memberIDs: [String]) {
        let response = try await client.response(for: SCIMGroupEndpoint.get(id: id))
        let resource = try Self.decode(response)
        guard let group = rememberGroup(resource, etag: response.headers["ETag"]) else { throw Self.missingGroupID }
        return (resource, group, groupMemberIDs[id] ?? [])
    }

    /// The users with these ids, by id, in one filtered list request where the service filters;
    /// one by one otherwise. Ids of users that are gone are left out.
    private func usersWithIDs(_ ids: [String]) async throws -> [String: User] {
        guard !ids.isEmpty else { return [:] }
        var found: [String: User] = [:]
        if try await capabilities().filter {
            let filter = ids.map { "id eq \(SCIMFilter.quoted($0))" }.joined(separator: " or ")
            let body = try await json(SCIMEndpoint.listUsers(SCIMListRequest(startIndex: 1, count: ids.count, filter: filter)))
            for resource in body[attribute: "Resources"]?.arrayValue ?? [] {
                if let user = SCIMUserMapping.user(from: resource) { found[user.id] = user }
            }
        } else {
            for id in ids {
                do {
                    found[id] = try await user(id: id)
                } catch APIError.notFound {
                    continue
                }
            }
        }
        return found
    }

    private func decodeGroup(_ response: TransportResponse) throws -> Group {
        guard let group = rememberGroup(try Self.decode(response), etag: response.headers["ETag"]) else { throw Self.missingGroupID }
        return group
    }

    /// Keeps the resource's version and member ids; returns it as a `Group`.
    private func rememberGroup(_ resource: JSONValue, etag: String?) -> Group? {
        guard let group = SCIMGroupMapping.group(from: resource) else { return nil }
        if let version = resource[attribute: "meta"]?[attribute: "version"]?.stringValue ?? etag { groupVersions[group.id] = version }
        // Services leave `members` out of a group without any: absent means none.
        groupMemberIDs[group.id] = SCIMGroupMapping.memberIDs(of: resource)
        return group
    }

    static func sortAttribute(_ sort: GroupSort) -> (String, Bool) {
        switch sort {
        case .name: ("displayName", false)
        case .nameDescending: ("displayName", true)
        case .createdAt: ("meta.created", false)
        case .createdAtDescending: ("meta.created", true)
        }
    }

    private static var missingGroupID: APIError {
        APIError.decodingFailed(DecodingFailure(path: "id", reason: "is missing", rawBody: ""))
    }
}
