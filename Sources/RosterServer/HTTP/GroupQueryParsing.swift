import RosterKit

/// Reads `GET /api/v1/groups`'s query string into a `GroupQuery`, by the user list's rules:
/// the same paging and search limits, a bad value is a 400, unknown parameters are ignored.
enum GroupQueryParsing {
    private static let names = ["page", "per_page", "q", "sort"]

    static func parse(_ query: String?) throws(APIProblem) -> GroupQuery {
        var result = GroupQuery()
        var seen = Set<String>()
        for (name, value) in try ListQueryParsing.pairs(query ?? "") where names.contains(name) {
            guard seen.insert(name).inserted else { throw .badQuery("Give \(name) at most once.") }
            switch name {
            case "page": result.page = try ListQueryParsing.page(value)
            case "per_page": result.perPage = try ListQueryParsing.perPage(value)
            case "q": result.search = try ListQueryParsing.search(value)
            default: // sort
                guard let sort = GroupSort(rawValue: value) else {
                    throw .badQuery("sort must be one of \(GroupSort.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                result.sort = sort
            }
        }
        return result
    }
}
