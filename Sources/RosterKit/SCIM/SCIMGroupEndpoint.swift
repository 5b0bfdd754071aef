import Foundation

/// The SCIM calls on one group (RFC 7644): read, create, rename or replace, change members,
/// delete. Listing groups is `SCIMEndpoint.listGroups`.
public enum SCIMGroupEndpoint: Endpoint {
    case get(id: String)
    case create(JSONValue, idempotencyKey: String)
    case replace(id: String, JSONValue, ifMatch: String?)
    /// `PATCH /Groups/{id}` with these operations (each a whole `{op, path, value}` object:
    /// a `remove` has no value).
    case patch(id: String, [JSONValue], ifMatch: String?)
    case delete(id: String, ifMatch: String?)

    public var method: HTTPMethod {
        switch self {
        case .get: .get
        case .create: .post
        case .replace: .put
        case .patch: .patch
        case .delete: .delete
        }
    }

    public var pathSegments: [String] {
        switch self {
        case .create: ["Groups"]
        case .get(let id), .replace(let id, _, _), .patch(let id, _, _), .delete(let id, _): ["Groups", id]
        }
    }

    public var idempotencyKey: String? {
        if case .create(_, let key) = self { return key }
        return nil
    }

    public var headers: [(name: String, value: String)] {
        var result = [(name: "Accept", value: "\(SCIMSchemas.mediaType), application/json")]
        switch self {
        case .create, .replace, .patch: result.append((name: "Content-Type", value: SCIMSchemas.mediaType))
        default: break
        }
        switch self {
        case .replace(_, _, let tag?), .patch(_, _, let tag?), .delete(_, let tag?): result.append((name: "If-Match", value: tag))
        default: break
        }
        return result
    }

    public func encodeBody(with encoder: JSONEncoder) throws -> Data? {
        switch self {
        case .create(let resource, _), .replace(_, let resource, _):
            try encoder.encode(resource)
        case .patch(_, let operations, _):
            try encoder.encode(JSONValue.object([
                "schemas": .array([.string(SCIMSchemas.patchOp)]),
                "Operations": .array(operations),
            ]))
        case .get, .delete:
            nil
        }
    }
}
