/// The parameters of a group list request.
public struct GroupQuery: Sendable, Equatable, Hashable {
    /// 1-based page number.
    public var page: Int
    public var perPage: Int
    /// Case-insensitive substring of the name; nil or empty means every group.
    public var search: String?
    public var sort: GroupSort

    public init(page: Int = 1, perPage: Int = UserQuery.defaultPerPage, search: String? = nil, sort: GroupSort = .default) {
        self.page = page
        self.perPage = perPage
        self.search = search
        self.sort = sort
    }

    /// The query's parameters as name/value pairs, in a fixed order, leaving out what is unset.
    public var parameters: [(name: String, value: String)] {
        var result: [(String, String)] = [("page", String(page)), ("per_page", String(perPage))]
        if let search, !search.isEmpty { result.append(("q", search)) }
        result.append(("sort", sort.rawValue))
        return result
    }
}
