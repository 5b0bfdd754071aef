/// The parameters of a list request: which page, how big, and which users.
public struct UserQuery: Sendable, Equatable, Hashable, Codable {
    /// The page sizes the server accepts.
    public static let perPageRange: ClosedRange<Int> = 1...200
    public static let defaultPerPage = 50

    /// 1-based page number.
    public var page: Int
    public var perPage: Int
    /// Case-insensitive substring of name or email; nil or empty means everyone.
    public var search: String?
    public var sort: UserSort
    public var role: Role?
    public var status: Status?
    /// A group's id: only its members.
    public var group: String?

    public init(
        page: Int = 1, perPage: Int = UserQuery.defaultPerPage, search: String? = nil,
        sort: UserSort = .default, role: Role? = nil, status: Status? = nil, group: String? = nil
    ) {
        self.page = page
        self.perPage = perPage
        self.search = search
        self.sort = sort
        self.role = role
        self.status = status
        self.group = group
    }

    enum CodingKeys: String, CodingKey {
        case page
        case perPage = "per_page"
        case search = "q"
        case sort, role, status, group
    }

    /// The same filter and order at another page.
    public func atPage(_ page: Int) -> UserQuery {
        var copy = self
        copy.page = page
        return copy
    }

    /// The query's parameters as name/value pairs, in a fixed order, leaving out what is unset.
    public var parameters: [(name: String, value: String)] {
        var result: [(String, String)] = [("page", String(page)), ("per_page", String(perPage))]
        if let search, !search.isEmpty { result.append(("q", search)) }
        // The directory's own order is the one asked by naming none.
        if sort != .directory { result.append(("sort", sort.rawValue)) }
        if let role { result.append(("role", role.rawValue)) }
        if let status { result.append(("status", status.rawValue)) }
        if let group, !group.isEmpty { result.append(("group", group)) }
        return result
    }
}
