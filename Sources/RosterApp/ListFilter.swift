import RosterKit

/// Which users the list shows besides the search: a role, a status and a group. The server
/// does the filtering (the query carries them), so the list stays windowed at any size.
public struct ListFilter: Sendable, Equatable {
    public var role: Role?
    public var status: Status?
    public var group: GroupReference?

    public init(role: Role? = nil, status: Status? = nil, group: GroupReference? = nil) {
        self.role = role
        self.status = status
        self.group = group
    }

    public var isEmpty: Bool { role == nil && status == nil && group == nil }

    /// What is active, for the list's title: "status suspended · role admin · group Sales".
    public var summary: String {
        var parts: [String] = []
        if let status { parts.append("status \(status.rawValue)") }
        if let role { parts.append("role \(role.rawValue)") }
        if let group { parts.append("group \(group.name)") }
        return parts.joined(separator: " · ")
    }

    /// The filter as the filter line writes it, so `f` opens on what is in force.
    public var lineText: String {
        var parts: [String] = []
        if let status { parts.append("status:\(status.rawValue)") }
        if let role { parts.append("role:\(role.rawValue)") }
        if let group { parts.append("group:\(group.name)") }
        return parts.joined(separator: " ")
    }

    /// `query` narrowed to these users.
    func applied(to query: UserQuery) -> UserQuery {
        var query = query
        query.role = role
        query.status = status
        query.group = group?.id
        return query
    }
}
