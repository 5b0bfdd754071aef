import Foundation
import GRDB
import RosterKit

/// The two statements behind one list request: the page of rows and the total.
struct ListPlan {
    var pageSQL: String
    /// The same page counted from the end: the order reversed, with `reversedPageArguments(total:)`.
    var reversedPageSQL: String
    var pageArguments: StatementArguments
    var countSQL: String
    var countArguments: StatementArguments
    var offset: Int
    var limit: Int
    /// `pageArguments` before LIMIT and OFFSET.
    private var pageFilterArguments: [(any DatabaseValueConvertible)?]

    /// FTS5's trigram tokenizer indexes runs of three characters; a shorter pattern has no
    /// trigram to look up (MATCH would find nothing). Such patterns are answered by `instr` over
    /// the key columns, walking the sort's index (1 or 2 characters match so many users that a
    /// page fills after a few rows), with the total from `users_short_count`.
    static let minimumIndexedSearchLength = 3

    /// How many rows a page may skip and still count as quick (see `isQuick`).
    static let quickOffsetLimit = 1000

    /// Whether the list reads only a bounded number of rows whatever the directory's size: no
    /// search, no group, a page near the start. Such lists run on the calling thread; the
    /// others may walk many rows and go to a thread pool with a time budget (`SQLiteStore.longRead`).
    static func isQuick(_ listQuery: UserListQuery) -> Bool {
        let query = listQuery.base
        guard listQuery.group == nil, query.search.map(SortKey.of)?.isEmpty ?? true else { return false }
        let (skipped, overflow) = (query.page - 1).multipliedReportingOverflow(by: query.perPage)
        return !overflow && skipped <= quickOffsetLimit
    }

    /// - Parameter columns: what each page row holds: `UserRow.columns`, or `users.json`.
    init(_ listQuery: UserListQuery, columns: String = UserRow.columns) {
        let query = listQuery.base
        limit = query.perPage
        let (product, overflow) = (query.page - 1).multipliedReportingOverflow(by: query.perPage)
        offset = overflow ? Int(Int32.max) : max(0, product)

        // Already of the element type StatementArguments takes: any other array costs a cast of
        // the whole array, or (for `some DatabaseValueConvertible`) a key path built per call.
        var filterArguments: [(any DatabaseValueConvertible)?] = []
        if let role = query.role { filterArguments.append(role.rawValue) }
        if let status = query.status { filterArguments.append(status.rawValue) }
        if let group = listQuery.group { filterArguments.append(group) }
        let paging: [(any DatabaseValueConvertible)?] = [limit, offset]
        let search = query.search.map(SortKey.of) ?? ""
        let kind = Shape.SearchKind(search)

        let sql = Self.sqlCache.sql(for: Shape(
            columns: columns, sort: query.sort, role: query.role != nil, status: query.status != nil,
            group: listQuery.group != nil, search: kind))
        pageSQL = sql.page
        reversedPageSQL = sql.reversedPage
        countSQL = sql.count
        switch kind {
        case .everyone:
            pageFilterArguments = filterArguments
            countArguments = StatementArguments(filterArguments)
        case .matchesNoOne:
            pageFilterArguments = []
            countArguments = []
        case .indexed:
            let phrase: [(any DatabaseValueConvertible)?] = [Self.phrase(search)]
            pageFilterArguments = phrase + filterArguments
            countArguments = StatementArguments(phrase + filterArguments)
        case .scanned:
            let arguments: [(any DatabaseValueConvertible)?] = [search, search] + filterArguments
            pageFilterArguments = arguments
            countArguments = listQuery.group == nil
                ? StatementArguments([search] + filterArguments)
                : StatementArguments(arguments)
        }
        pageArguments = StatementArguments(pageFilterArguments + paging)
    }

    /// Whether the page is nearer the end of the list than its start: then it is read in the
    /// reversed order, from the end, so no page walks more than half the list (the last page,
    /// `End` in the client, walks none). The total is read first, in the same transaction.
    func readsFromEnd(total: Int) -> Bool {
        offset < total && offset > total - offset - limit
    }

    /// The reversed page's arguments: the filters as for `pageSQL`, then how many rows and how
    /// many to skip from the end. Its rows come last first.
    func reversedPageArguments(total: Int) -> StatementArguments {
        let rows = min(limit, total - offset)
        return StatementArguments(pageFilterArguments + [rows, total - offset - rows])
    }

    /// The statements' text for queries of one shape; see `ListPlanSQL`.
    static func sql(for shape: Shape) -> (page: String, reversedPage: String, count: String) {
        let forward = sql(for: shape, order: orderBy(shape.sort))
        let reversed = sql(for: shape, order: reversedOrderBy(shape.sort))
        return (forward.page, reversed.page, forward.count)
    }

    private static func sql(for shape: Shape, order orderTerms: String) -> (page: String, count: String) {
        var filters: [String] = []
        if shape.role { filters.append("users.role = ?") }
        if shape.status { filters.append("users.status = ?") }
        if shape.group { filters.append(Self.groupFilter) }
        let columns = shape.columns
        let order = "ORDER BY " + orderTerms + " LIMIT ? OFFSET ?"

        switch shape.search {
        case .matchesNoOne:
            // Validation keeps control characters out of every name and email, so such a search
            // matches no one. Answered without asking FTS5, which would cut the pattern at a NUL.
            return ("SELECT \(columns) FROM users WHERE 0 LIMIT ? OFFSET ?", "SELECT 0")
        case .everyone:
            let filter = Self.whereClause(filters)
            // users_count has counts by role and status only; a group's members are counted.
            return ("SELECT \(columns) FROM users \(filter) \(order)",
                    shape.group
                        ? "SELECT count(*) FROM users \(filter)"
                        : "SELECT coalesce(sum(n), 0) FROM users_count \(filter.replacingUsersPrefix)")
        case .indexed:
            // CROSS JOIN keeps the search index as the outer loop: the matching rows are found
            // first and only they are sorted, instead of walking the sort index over everyone.
            let hits = "(SELECT rowid AS hit FROM users_search WHERE users_search MATCH ?) CROSS JOIN users ON users.seq = hit"
            let filter = Self.whereClause(filters)
            return ("SELECT \(columns) FROM \(hits) \(filter) \(order)",
                    filters.isEmpty
                        ? "SELECT count(*) FROM users_search WHERE users_search MATCH ?"
                        : "SELECT count(*) FROM \(hits) \(filter)")
        case .scanned:
            // The page walks the sort's index and stops after a page of matches: quick for the
            // common letters people type first. The total comes from the per-gram counts
            // (`ShortGrams`), except in a group, whose members are counted.
            let filter = Self.whereClause(["(instr(users.name_key, ?) > 0 OR instr(users.email_key, ?) > 0)"] + filters)
            let gramFilter = Self.whereClause(["gram = ?"] + filters)
            return ("SELECT \(columns) FROM users \(filter) \(order)",
                    shape.group
                        ? "SELECT count(*) FROM users \(filter)"
                        : "SELECT coalesce(sum(n), 0) FROM users_short_count \(gramFilter.replacingUsersPrefix)")
        }
    }

    /// Members of the group whose id is the argument (the membership index, then rowid lookups).
    static let groupFilter = """
        users.seq IN (SELECT memberships.user_seq FROM memberships \
        JOIN groups ON groups.seq = memberships.group_seq WHERE groups.id = ?)
        """

    /// Ties are broken by ascending id in both directions, as the client's ordering does.
    /// Emails are unique, so their order needs no tie-break (and the unique index serves it).
    static func orderBy(_ sort: UserSort) -> String {
        switch sort {
        case .name, .directory: "users.name_key, users.id"
        case .nameDescending: "users.name_key DESC, users.id"
        case .email: "users.email_key"
        case .emailDescending: "users.email_key DESC"
        case .createdAt: "users.created_at, users.id"
        case .createdAtDescending: "users.created_at DESC, users.id"
        }
    }

    /// An FTS5 phrase: the trigram tokenizer turns it into consecutive trigrams, which is an
    /// exact substring match within one column. Quotes inside are doubled, FTS5's escape.
    static func phrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `orderBy` backwards, term by term: each is served by the same index as `orderBy`,
    /// walked from its other end.
    static func reversedOrderBy(_ sort: UserSort) -> String {
        switch sort {
        case .name, .directory: "users.name_key DESC, users.id DESC"
        case .nameDescending: "users.name_key, users.id DESC"
        case .email: "users.email_key DESC"
        case .emailDescending: "users.email_key"
        case .createdAt: "users.created_at DESC, users.id DESC"
        case .createdAtDescending: "users.created_at, users.id DESC"
        }
    }

    private static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }
}

private extension String {
    /// `users_count` has the same role and status columns, unqualified.
    var replacingUsersPrefix: String { replacingOccurrences(of: "users.", with: "") }
}
