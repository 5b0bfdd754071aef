/// The audit log's one call, as Roster uses it: a user's changes, newest first.
public enum AuditEndpoint: Endpoint, Equatable {
    case userHistory(id: String, limit: Int)

    public var method: HTTPMethod { .get }
    public var pathSegments: [String] { ["api", "v1", "audit"] }
    public var queryParameters: [(name: String, value: String)] {
        switch self {
        case .userHistory(let id, let limit):
            [("resource", "user"), ("resource_id", id), ("limit", String(limit))]
        }
    }
}
