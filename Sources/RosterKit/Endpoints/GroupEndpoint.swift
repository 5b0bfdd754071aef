import Foundation

/// The group calls of the Roster API that the client makes (docs/design.md, "Groups and membership").
public enum GroupEndpoint: Endpoint, Equatable {
    case list(GroupQuery)
    case get(id: String)
    case create(GroupDraft, idempotencyKey: String)
    case rename(id: String, GroupDraft)
    case delete(id: String)
    case members(groupID: String, UserQuery)
    /// `PUT` (add) or `DELETE` (remove) `/groups/{id}/members/{user_id}`: idempotent, so a
    /// lost answer may be sent again.
    case setMember(groupID: String, userID: String, isMember: Bool)
    /// `POST /groups/{id}/members` `{add, remove}`. Adding a member twice or removing one
    /// twice changes nothing, so the key only lets the retry policy send it again.
    /// No `Idempotency-Key`: the server keeps none for it, so a change whose answer was lost is
    /// never sent again (in the gap it could undo someone else's change).
    case changeMembers(groupID: String, MembershipChange)

    static let groupsPath = ["api", "v1", "groups"]

    public var method: HTTPMethod {
        switch self {
        case .list, .get, .members: .get
        case .create, .changeMembers: .post
        case .rename: .put
        case .delete: .delete
        case .setMember(_, _, let isMember): isMember ? .put : .delete
        }
    }

    public var pathSegments: [String] {
        switch self {
        case .list, .create: Self.groupsPath
        case .get(let id), .rename(let id, _), .delete(let id): Self.groupsPath + [id]
        case .members(let id, _), .changeMembers(let id, _): Self.groupsPath + [id, "members"]
        case .setMember(let id, let userID, _): Self.groupsPath + [id, "members", userID]
        }
    }

    public var queryParameters: [(name: String, value: String)] {
        switch self {
        case .list(let query): query.parameters
        // The member list is a user list: the user query's paging, search and sort. A filter
        // on the group itself would be redundant.
        case .members(_, let query): UserQuery(page: query.page, perPage: query.perPage, search: query.search, sort: query.sort).parameters
        default: []
        }
    }

    public var idempotencyKey: String? {
        switch self {
        case .create(_, let key): key
        default: nil
        }
    }

    public var idempotencyFeature: String { HealthStatus.groupIdempotencyKeyFeature }

    public func encodeBody(with encoder: JSONEncoder) throws -> Data? {
        switch self {
        case .create(let draft, _), .rename(_, let draft): try encoder.encode(draft)
        case .changeMembers(_, let change): try encoder.encode(change)
        case .list, .get, .delete, .members, .setMember: nil
        }
    }
}
