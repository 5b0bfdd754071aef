/// The group calls of the Roster API that the client makes (DESIGN.md, "Groups").
public enum GroupEndpoint: Endpoint, Equatable {
    case list(GroupQuery)

    public var method: HTTPMethod { .get }

    public var pathSegments: [String] { ["api", "v1", "groups"] }

    public var queryParameters: [(name: String, value: String)] {
        switch self {
        case .list(let query): query.parameters
        }
    }
}
