import PostgresNIO
import RosterKit

/// The statements behind one user list request on PostgreSQL: the total, then the page of
/// stored JSON. Filters are the same as SQLite's `ListPlan`, and so are its ideas:
///
/// - three characters and more search with `LIKE '%…%'` on the folded keys, which the trigram
///   index (`users_search`) answers;
/// - one or two characters have no trigram: the page walks the sort's index with `strpos` and
///   stops once it is full (common letters fill it after a few rows), and the total is a sum of
///   the kept per-gram counts (`users_short_count`), except in a group, whose members are counted;
/// - a page past the middle of its list is read from the end, in the reversed order, so no page
///   skips more than half the list (the last page skips none);
/// - a list without a group or a long search skips its rows, and tests them against a short
///   search, role and status, in an index-only scan of the sort's index (which covers those
///   columns, `PostgresSchema.coveringIndexes`), and reads the JSON of the page's rows alone,
///   instead of fetching every row it walks from the table.
struct PostgresListQuery {
    var count: PostgresQuery
    var offset: Int
    var limit: Int
    /// Whether the list may walk many rows, and so runs with the store's query budget.
    var isLong: Bool

    private let sort: UserSort
    private let condition: String
    private let filterBinds: PostgresBindings
    private let skipsInIndex: Bool

    init(_ listQuery: UserListQuery) {
        let query = listQuery.base
        limit = query.perPage
        sort = query.sort
        let (product, overflow) = (query.page - 1).multipliedReportingOverflow(by: query.perPage)
        offset = overflow ? Int(Int32.max) : max(0, product)
        isLong = !ListPlan.isQuick(listQuery)

        var binds = PostgresBindings()
        func bind(_ value: String) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        var filters: [String] = []
        let search = query.search.map(SortKey.of) ?? ""
        let kind = ListPlan.Shape.SearchKind(search)
        var gram: String?
        switch kind {
        case .everyone: break
        case .matchesNoOne:
            // Validation keeps control characters out of every name and email.
            filters.append("false")
        case .indexed:
            let pattern = bind("%" + Self.escapedForLike(search) + "%")
            filters.append("(users.name_key LIKE \(pattern) OR users.email_key LIKE \(pattern))")
        case .scanned:
            gram = bind(search)
            filters.append("(strpos(users.name_key, \(gram!)) > 0 OR strpos(users.email_key, \(gram!)) > 0)")
        }
        var counted: [String] = []
        if let role = query.role { counted.append("role = \(bind(role.rawValue))") }
        if let status = query.status { counted.append("status = \(bind(status.rawValue))") }
        filters += counted.map { "users." + $0 }
        if let group = listQuery.group, !PostgresErrors.isStorable(group) {
            filters.append("false") // no group id holds a NUL
        } else if let group = listQuery.group {
            filters.append("""
                users.seq IN (SELECT memberships.user_seq FROM memberships \
                JOIN groups ON groups.seq = memberships.group_seq WHERE groups.id = \(bind(group)))
                """)
        }
        condition = filters.isEmpty ? "" : "WHERE " + filters.joined(separator: " AND ")
        filterBinds = binds
        skipsInIndex = listQuery.group == nil && (kind == .everyone || kind == .scanned)

        let countSQL: String
        switch (kind, listQuery.group) {
        case (.everyone, nil):
            // Unsearched lists of everyone (or by role and status) add up the kept counts.
            countSQL = "SELECT coalesce(sum(n), 0)::bigint FROM users_count \(Self.whereClause(counted))"
        case (.scanned, nil):
            countSQL = "SELECT coalesce(sum(n), 0)::bigint FROM users_short_count \(Self.whereClause(["gram = \(gram!)"] + counted))"
        default:
            countSQL = "SELECT count(*) FROM users \(condition)"
        }
        count = PostgresQuery(unsafeSQL: countSQL, binds: binds)
    }

    /// Whether the page is nearer the end of the list than its start (as `ListPlan.readsFromEnd`):
    /// then `page(total:)` reads it in the reversed order, and its rows come last first.
    func readsFromEnd(total: Int) -> Bool {
        offset < total && offset > total - offset - limit
    }

    /// The page's statement, once the total (read first, in the same snapshot) is known.
    func page(total: Int) -> PostgresQuery {
        var binds = filterBinds
        let order: String
        if readsFromEnd(total: total) {
            let rows = min(limit, total - offset)
            binds.append(rows)
            binds.append(total - offset - rows)
            order = ListPlan.reversedOrderBy(sort)
        } else {
            binds.append(limit)
            binds.append(offset)
            order = ListPlan.orderBy(sort)
        }
        let paging = "LIMIT $\(binds.count - 1) OFFSET $\(binds.count)"
        guard skipsInIndex else {
            return PostgresQuery(unsafeSQL: "SELECT users.json FROM users \(condition) ORDER BY \(order) \(paging)", binds: binds)
        }
        // The sort's columns and the filtered ones are all in its index, so the walk is an
        // index-only scan; the page's rows are then found by their unique key (the email for
        // email sorts, else the id).
        let key = sort == .email || sort == .emailDescending ? "email_key" : "id"
        let columns = sort == .email || sort == .emailDescending ? "users.email_key"
            : (sort == .createdAt || sort == .createdAtDescending ? "users.created_at, users.id" : "users.name_key, users.id")
        return PostgresQuery(
            unsafeSQL: """
                SELECT stored.json FROM (SELECT \(columns) FROM users \(condition) ORDER BY \(order) \(paging)) AS users \
                JOIN users AS stored ON stored.\(key) = users.\(key) ORDER BY \(order)
                """,
            binds: binds)
    }

    /// LIKE's wildcards and its escape character (backslash, the default) taken literally.
    static func escapedForLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }
}
