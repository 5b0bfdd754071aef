import RosterKit

/// A user list request as the server reads it: RosterKit's `UserQuery`, plus the group filter
/// (`?group=`, and the members of a group), which the client's query does not carry yet.
struct UserListQuery: Hashable, Sendable {
    var base: UserQuery
    /// Only members of the group with this id; an id no group has matches no one.
    var group: String?

    init(_ base: UserQuery, group: String? = nil) {
        self.base = base
        self.group = group
    }

    init(
        page: Int = 1, perPage: Int = UserQuery.defaultPerPage, search: String? = nil,
        sort: UserSort = .default, role: Role? = nil, status: Status? = nil, group: String? = nil
    ) {
        self.init(UserQuery(page: page, perPage: perPage, search: search, sort: sort, role: role, status: status), group: group)
    }
}
