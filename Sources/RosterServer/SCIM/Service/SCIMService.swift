import Foundation
import Hummingbird
import RosterKit

/// A SCIM request as the service reads it, whether it came over HTTP or inside a Bulk request.
struct SCIMRequest: Sendable {
    var method: HTTPRequest.Method
    /// The path's segments after `/scim/v2`, percent-decoded.
    var path: [String]
    var query: [String: String] = [:]
    var ifMatch: String?
    var ifNoneMatch: String?
    var body: SCIMValue?
    /// `http://host:port/scim/v2`, for `meta.location` and `$ref`.
    var baseURL: String
}

/// A SCIM answer: status, body (none for 204 and 304) and headers (ETag, Location).
struct SCIMAnswer: Sendable {
    var status: HTTPResponse.Status
    var body: SCIMValue?
    var headers: HTTPFields = [:]
}

/// The SCIM 2.0 service provider (RFC 7643, 7644) over the user store, SQLite or PostgreSQL:
/// routes a request to its resource and answers it, or throws the `SCIMProblem` to answer.
struct SCIMService: Sendable {
    let store: any SCIMStore
    let now: @Sendable () -> Date

    func handle(_ request: SCIMRequest) async throws -> SCIMAnswer {
        let path = request.path
        switch (path.first, path.count) {
        case ("ServiceProviderConfig", 1):
            try only(.get, request)
            return SCIMAnswer(status: .ok, body: SCIMDiscovery.serviceProviderConfig(baseURL: request.baseURL))
        case ("ResourceTypes", 1):
            try only(.get, request)
            return SCIMAnswer(status: .ok, body: SCIMDiscovery.resourceTypesList(baseURL: request.baseURL))
        case ("ResourceTypes", 2):
            try only(.get, request)
            return SCIMAnswer(status: .ok, body: try SCIMDiscovery.resourceType(named: path[1], baseURL: request.baseURL))
        case ("Schemas", 1):
            try only(.get, request)
            return SCIMAnswer(status: .ok, body: SCIMDiscovery.schemasList(baseURL: request.baseURL))
        case ("Schemas", 2):
            try only(.get, request)
            return SCIMAnswer(status: .ok, body: try SCIMDiscovery.schema(id: path[1], baseURL: request.baseURL))
        case (".search", 1):
            try only(.post, request)
            return try await searchEverything(request)
        case ("Bulk", 1):
            try only(.post, request)
            return try await SCIMBulk(service: self).perform(request)
        case ("Users", 1), ("Groups", 1):
            switch request.method {
            case .get: return try await list(path[0], SCIMListRequest(query: request.query), request)
            case .post: return path[0] == "Users" ? try await createUser(request) : try await createGroup(request)
            default: throw SCIMProblem.methodNotAllowed(request.method.rawValue, allowed: ["GET", "POST"])
            }
        case ("Users", 2) where path[1] == ".search", ("Groups", 2) where path[1] == ".search":
            try only(.post, request)
            return try await list(path[0], SCIMListRequest(searchBody: try body(request)), request)
        case ("Users", 2):
            return try await user(id: path[1], request)
        case ("Groups", 2):
            return try await group(id: path[1], request)
        default:
            throw SCIMProblem.notFound("Nothing is at /scim/v2/\(path.joined(separator: "/").prefix(200)).")
        }
    }

    private func only(_ method: HTTPRequest.Method, _ request: SCIMRequest) throws(SCIMProblem) {
        guard request.method == method else { throw .methodNotAllowed(request.method.rawValue, allowed: [method.rawValue]) }
    }

    private func body(_ request: SCIMRequest) throws(SCIMProblem) -> SCIMValue {
        guard let body = request.body else { throw .invalidSyntax("This request needs a JSON body.") }
        return body
    }

    // MARK: Lists

    private func list(_ endpoint: String, _ list: SCIMListRequest, _ request: SCIMRequest) async throws -> SCIMAnswer {
        let (total, resources) = endpoint == "Users"
            ? try await userPage(list, baseURL: request.baseURL)
            : try await groupPage(list, baseURL: request.baseURL)
        return SCIMAnswer(status: .ok, body: SCIMListRequest.listResponse(total: total, startIndex: list.startIndex, resources: resources))
    }

    private func userPage(_ list: SCIMListRequest, baseURL: String) async throws -> (Int, [SCIMValue]) {
        let (total, records) = try await mapped { try await store.scimUsers(list.query) }
        return (total, records.map { .object(list.projection.apply(SCIMUserResource.render($0, baseURL: baseURL))) })
    }

    private func groupPage(_ list: SCIMListRequest, baseURL: String) async throws -> (Int, [SCIMValue]) {
        let withMembers = list.projection.includes("members")
        let (total, records) = try await store.scimGroups(list.query, withMembers: withMembers)
        return (total, records.map { .object(list.projection.apply(SCIMGroupResource.render($0, baseURL: baseURL, includeMembers: withMembers))) })
    }

    /// `POST /.search`: users, then groups. A filter naming an attribute only one of them has
    /// matches none of the other; one neither has is `invalidFilter`.
    private func searchEverything(_ request: SCIMRequest) async throws -> SCIMAnswer {
        let search = try SCIMListRequest(searchBody: try body(request))
        var everyone = search
        everyone.startIndex = 1
        everyone.count = 0
        let userTotal = try? await userPage(everyone, baseURL: request.baseURL).0
        let groupTotal = try? await groupPage(everyone, baseURL: request.baseURL).0
        guard userTotal != nil || groupTotal != nil else {
            _ = try await userPage(everyone, baseURL: request.baseURL) // throws the users' reason
            return SCIMAnswer(status: .noContent)
        }
        var resources: [SCIMValue] = []
        let users = userTotal ?? 0
        if let userTotal, search.startIndex <= userTotal, search.count > 0 {
            resources = try await userPage(search, baseURL: request.baseURL).1
        }
        if let groupTotal, groupTotal > 0, resources.count < search.count {
            var groups = search
            groups.startIndex = max(1, search.startIndex - users)
            groups.count = search.count - resources.count
            resources += try await groupPage(groups, baseURL: request.baseURL).1
        }
        return SCIMAnswer(status: .ok, body: SCIMListRequest.listResponse(
            total: users + (groupTotal ?? 0), startIndex: search.startIndex, resources: resources))
    }

    // MARK: Users

    private func createUser(_ request: SCIMRequest) async throws -> SCIMAnswer {
        let write = try SCIMUserResource.write(from: try body(request), current: nil)
        let record = try await mapped { try await store.createSCIMUser(write, at: now()) }
        return answer(SCIMUserResource.render(record, baseURL: request.baseURL), version: record.version, status: .created, request)
    }

    private func user(id: String, _ request: SCIMRequest) async throws -> SCIMAnswer {
        let baseURL = request.baseURL
        switch request.method {
        case .get:
            let record = try await mapped { try await store.scimUser(id: id) }
            if let ifNoneMatch = request.ifNoneMatch, ETag.matches(ifNoneMatch, version: record.version) {
                return SCIMAnswer(status: .notModified, headers: [.eTag: record.version])
            }
            return answer(SCIMUserResource.render(record, baseURL: baseURL), version: record.version, status: .ok, request)
        case .put:
            let body = try body(request)
            let record = try await mapped {
                try await store.modifySCIMUser(id: id, ifMatch: request.ifMatch, at: now()) { current in
                    try SCIMUserResource.write(from: body, current: current)
                }
            }
            return answer(SCIMUserResource.render(record, baseURL: baseURL), version: record.version, status: .ok, request)
        case .patch:
            let operations = try SCIMPatch.operations(from: try body(request), type: .user)
            let record = try await mapped {
                try await store.modifySCIMUser(id: id, ifMatch: request.ifMatch, at: now()) { current in
                    let patched = try SCIMPatch.apply(operations, to: SCIMUserResource.render(current, baseURL: baseURL), type: .user)
                    return try SCIMUserResource.write(from: .object(patched), current: current)
                }
            }
            // 200 with the resource, not 204: identity providers and scim-sanity expect it.
            return answer(SCIMUserResource.render(record, baseURL: baseURL), version: record.version, status: .ok, request)
        case .delete:
            try await mapped { try await store.deleteSCIMUser(id: id, ifMatch: request.ifMatch, at: now()) }
            return SCIMAnswer(status: .noContent)
        default:
            throw SCIMProblem.methodNotAllowed(request.method.rawValue, allowed: ["GET", "PUT", "PATCH", "DELETE"])
        }
    }

    // MARK: Groups

    private func createGroup(_ request: SCIMRequest) async throws -> SCIMAnswer {
        let write = try SCIMGroupResource.write(from: try body(request))
        let record = try await mapped { try await store.createSCIMGroup(write, at: now()) }
        return answer(SCIMGroupResource.render(record, baseURL: request.baseURL), version: record.version, status: .created, request)
    }

    private func group(id: String, _ request: SCIMRequest) async throws -> SCIMAnswer {
        let baseURL = request.baseURL
        switch request.method {
        case .get:
            let record = try await mapped { try await store.scimGroup(id: id) }
            if let ifNoneMatch = request.ifNoneMatch, ETag.matches(ifNoneMatch, version: record.version) {
                return SCIMAnswer(status: .notModified, headers: [.eTag: record.version])
            }
            return answer(SCIMGroupResource.render(record, baseURL: baseURL), version: record.version, status: .ok, request)
        case .put:
            let write = try SCIMGroupResource.write(from: try body(request))
            let record = try await mapped {
                try await store.modifySCIMGroup(id: id, ifMatch: request.ifMatch, at: now()) { _ in write }
            }
            return answer(SCIMGroupResource.render(record, baseURL: baseURL), version: record.version, status: .ok, request)
        case .patch:
            let operations = try SCIMPatch.operations(from: try body(request), type: .group)
            let record = try await mapped {
                try await store.modifySCIMGroup(id: id, ifMatch: request.ifMatch, at: now()) { current in
                    let patched = try SCIMPatch.apply(operations, to: SCIMGroupResource.render(current, baseURL: baseURL), type: .group)
                    return try SCIMGroupResource.write(from: .object(patched))
                }
            }
            return answer(SCIMGroupResource.render(record, baseURL: baseURL), version: record.version, status: .ok, request)
        case .delete:
            try await mapped { try await store.deleteSCIMGroup(id: id, ifMatch: request.ifMatch, at: now()) }
            return SCIMAnswer(status: .noContent)
        default:
            throw SCIMProblem.methodNotAllowed(request.method.rawValue, allowed: ["GET", "PUT", "PATCH", "DELETE"])
        }
    }

    // MARK: Answers

    /// A resource with its ETag, and Location when created; `attributes` and
    /// `excludedAttributes` apply to single resources too.
    private func answer(_ resource: SCIMObject, version: String, status: HTTPResponse.Status, _ request: SCIMRequest) -> SCIMAnswer {
        var headers: HTTPFields = [.eTag: version]
        if status == .created, let location = resource["meta"]?.object?["location"]?.string {
            headers[.location] = location
        }
        let projection = (try? SCIMProjection(attributes: request.query["attributes"], excludedAttributes: request.query["excludedAttributes"])) ?? .all
        return SCIMAnswer(status: status, body: .object(projection.apply(resource)), headers: headers)
    }

    /// The store's refusals as SCIM errors.
    private func mapped<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch StoreError.notFound {
            throw SCIMProblem.userNotFound
        } catch StoreError.groupNotFound {
            throw SCIMProblem.groupNotFound
        } catch StoreError.emailTaken {
            throw SCIMProblem.uniqueness("Another user already has that email (as their email or userName).")
        } catch StoreError.userNameTaken {
            throw SCIMProblem.uniqueness("Another user already has that userName (as their userName or email).")
        } catch StoreError.groupNameTaken {
            throw SCIMProblem.uniqueness("Another group already has that displayName.")
        } catch StoreError.versionMismatch {
            throw SCIMProblem.preconditionFailed
        } catch StoreError.queryTooSlow {
            // A list whose filter the indexes cannot narrow reads documents until the query
            // budget runs out (`QueryBudget.standard`); RFC 7644's word for it is tooMany.
            throw SCIMProblem.tooMany(
                "The filter needs more of the directory read than the server does for one request; narrow it, "
                    + "for example with userName, emails.value or externalId eq, or meta.lastModified gt.")
        } catch StoreError.unknownUsers(let fields) {
            let ids = fields.map(\.message).joined(separator: " ")
            throw SCIMProblem.invalidValue("members: \(ids) A group's members must be existing users; nothing was changed.")
        }
    }
}
