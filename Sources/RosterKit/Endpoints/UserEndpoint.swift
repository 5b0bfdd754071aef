import Foundation

/// Every call of the user API (see docs/design.md, "The wire contract", and docs/api.md).
public enum UserEndpoint: Endpoint, Equatable {
    case list(UserQuery)
    case get(id: String)
    case create(UserDraft, idempotencyKey: String)
    /// `ifMatch`: the version the change was made on (`User.entityTag`); nil changes the user
    /// whatever their version.
    case update(id: String, UserDraft, ifMatch: String? = nil)
    /// `ifMatch` as for `update`: a delete of a user changed since is refused (412).
    case delete(id: String, ifMatch: String? = nil)
    case health

    static let usersPath = ["api", "v1", "users"]

    public var method: HTTPMethod {
        switch self {
        case .list, .get, .health: .get
        case .create: .post
        case .update: .put
        case .delete: .delete
        }
    }

    public var pathSegments: [String] {
        switch self {
        case .list, .create: Self.usersPath
        case .get(let id), .update(let id, _, _), .delete(let id, _): Self.usersPath + [id]
        case .health: ["api", "v1", "health"]
        }
    }

    public var queryParameters: [(name: String, value: String)] {
        if case .list(let query) = self { return query.parameters }
        return []
    }

    public var idempotencyKey: String? {
        if case .create(_, let key) = self { return key }
        return nil
    }

    public var headers: [(name: String, value: String)] {
        switch self {
        case .update(_, _, let tag?), .delete(_, let tag?): [(name: "If-Match", value: tag)]
        default: []
        }
    }

    public func encodeBody(with encoder: JSONEncoder) throws -> Data? {
        switch self {
        case .create(let draft, _), .update(_, let draft, _): try encoder.encode(draft)
        case .list, .get, .delete, .health: nil
        }
    }
}
