import Foundation

/// Every SCIM call Roster makes (RFC 7644), under the service's base URL (which already ends
/// in `/scim/v2` or the like).
public enum SCIMEndpoint: Endpoint {
    case serviceProviderConfig
    case userSchema
    /// The enterprise User extension's schema: which of department and employeeNumber it has.
    case enterpriseUserSchema
    case listUsers(SCIMListRequest)
    case getUser(id: String)
    case createUser(JSONValue, idempotencyKey: String)
    case replaceUser(id: String, JSONValue, ifMatch: String?)
    case patchUser(id: String, [SCIMUserMapping.PatchOperation], ifMatch: String?)
    case deleteUser(id: String, ifMatch: String?)
    case listGroups(SCIMListRequest)

    public var method: HTTPMethod {
        switch self {
        case .serviceProviderConfig, .userSchema, .enterpriseUserSchema, .listUsers, .getUser, .listGroups: .get
        case .createUser: .post
        case .replaceUser: .put
        case .patchUser: .patch
        case .deleteUser: .delete
        }
    }

    public var pathSegments: [String] {
        switch self {
        case .serviceProviderConfig: ["ServiceProviderConfig"]
        case .userSchema: ["Schemas", SCIMSchemas.user]
        case .enterpriseUserSchema: ["Schemas", SCIMSchemas.enterpriseUser]
        case .listUsers, .createUser: ["Users"]
        case .listGroups: ["Groups"]
        case .getUser(let id), .replaceUser(let id, _, _), .patchUser(let id, _, _), .deleteUser(let id, _): ["Users", id]
        }
    }

    public var queryParameters: [(name: String, value: String)] {
        switch self {
        case .listUsers(let request), .listGroups(let request): request.parameters
        default: []
        }
    }

    public var idempotencyKey: String? {
        if case .createUser(_, let key) = self { return key }
        return nil
    }

    public var headers: [(name: String, value: String)] {
        var result = [(name: "Accept", value: "\(SCIMSchemas.mediaType), application/json")]
        switch self {
        case .createUser, .replaceUser, .patchUser: result.append((name: "Content-Type", value: SCIMSchemas.mediaType))
        default: break
        }
        switch self {
        case .replaceUser(_, _, let tag?), .patchUser(_, _, let tag?), .deleteUser(_, let tag?):
            result.append((name: "If-Match", value: tag))
        default: break
        }
        return result
    }

    public func encodeBody(with encoder: JSONEncoder) throws -> Data? {
        switch self {
        case .createUser(let resource, _), .replaceUser(_, let resource, _):
            return try encoder.encode(resource)
        case .patchUser(_, let operations, _):
            return try encoder.encode(JSONValue.object([
                "schemas": .array([.string(SCIMSchemas.patchOp)]),
                "Operations": .array(operations.map(\.json)),
            ]))
        default:
            return nil
        }
    }
}

/// A page of users as SCIM asks for it: 1-based `startIndex`, `count`, and optionally a filter
/// and an order.
public struct SCIMListRequest: Sendable, Equatable {
    public var startIndex: Int
    public var count: Int
    public var filter: String?
    public var sortBy: String?
    public var descending = false

    public init(startIndex: Int, count: Int, filter: String? = nil, sortBy: String? = nil, descending: Bool = false) {
        self.startIndex = startIndex
        self.count = count
        self.filter = filter
        self.sortBy = sortBy
        self.descending = descending
    }

    var parameters: [(name: String, value: String)] {
        var result = [(name: "startIndex", value: String(startIndex)), (name: "count", value: String(count))]
        if let filter { result.append((name: "filter", value: filter)) }
        if let sortBy {
            result.append((name: "sortBy", value: sortBy))
            result.append((name: "sortOrder", value: descending ? "descending" : "ascending"))
        }
        return result
    }
}
