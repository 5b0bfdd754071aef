import RosterKit

/// Every page of one user query, in order, read one after another: what "all matching" stands
/// for when a bulk run starts, when its emails are copied, and what an export writes. The end
/// is a short page, or the total when the directory gave a true one (a SCIM service may give
/// only a lower bound, and then a short page is the only sign).
struct EveryPage: Sendable {
    let directory: any Directory
    /// The search, filters, sort and page size; its page number is where reading starts.
    let query: UserQuery

    /// The largest pages the contract allows: the fewest requests.
    static let largestPageSize = UserQuery.perPageRange.upperBound

    /// Every page of a marked query, in the largest pages.
    init(directory: any Directory, of marked: Marks.Query) {
        self.directory = directory
        query = marked.filter.applied(to: UserQuery(
            page: 1, perPage: Self.largestPageSize, search: marked.search.isEmpty ? nil : marked.search, sort: marked.sort))
    }

    init(directory: any Directory, query: UserQuery) {
        self.directory = directory
        self.query = query
    }

    /// Reads page after page and hands each to `body`, until the last page or until `body`
    /// says it has had enough (false).
    nonisolated(nonsending) func read(_ body: (Page<User>) async throws -> Bool) async throws {
        var number = query.page
        while true {
            let page = try await directory.listUsers(query.atPage(number))
            guard try await body(page) else { return }
            if Self.isLast(page, number: number, perPage: query.perPage) { return }
            number += 1
        }
    }

    static func isLast(_ page: Page<User>, number: Int, perPage: Int) -> Bool {
        page.items.count < perPage || (!page.totalIsLowerBound && number * perPage >= page.total)
    }
}
