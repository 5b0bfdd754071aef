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
    /// The list's conditions on `users` (or, for a search of everyone, on `user_keys AS users`).
    private let filters: [PostgresSQL]
    private var condition: PostgresSQL { Self.whereClause(filters) }
    private let skipsInIndex: Bool
    /// A trigram search of everyone (no group): `searchPage` answers it in one statement.
    let searchesKeys: Bool
    /// The list as `PostgresPageMarks` keeps its boundaries, when its pages walk the sort's
    /// index (no group, no trigram search): such a page may seek from a kept boundary.
    let marksKey: PostgresPageMarks.ListKey?

    init(_ listQuery: UserListQuery) {
        let query = listQuery.base
        limit = query.perPage
        sort = query.sort
        let (product, overflow) = (query.page - 1).multipliedReportingOverflow(by: query.perPage)
        offset = overflow ? Int(Int32.max) : max(0, product)
        isLong = !ListPlan.isQuick(listQuery)

        var filters: [PostgresSQL] = []
        let search = query.search.map(SortKey.of) ?? ""
        let kind = ListPlan.Shape.SearchKind(search)
        switch kind {
        case .everyone, .indexed: break
        case .matchesNoOne:
            // Validation keeps control characters out of every name and email.
            filters.append("false")
        case .scanned:
            filters.append("(strpos(users.name_key, \(search)) > 0 OR strpos(users.email_key, \(search)) > 0)")
        }
        // Conditions on the columns `users_count` and `users_short_count` have too.
        var counted: [PostgresSQL] = []
        if let role = query.role { counted.append("role = \(role.rawValue)") }
        if let status = query.status { counted.append("status = \(status.rawValue)") }
        filters += counted.map { "users.\($0)" }
        if kind == .indexed {
            let pattern = "%" + Self.escapedForLike(search) + "%"
            if listQuery.group == nil {
                // The hits come from the narrow table alone (`searchPage`), filtered there too.
                filters.insert(Self.keysMatch("users", pattern), at: 0)
            } else {
                filters.insert("users.seq IN (SELECT user_keys.seq FROM user_keys WHERE \(Self.keysMatch("user_keys", pattern)))", at: 0)
            }
        }
        if let group = listQuery.group, !PostgresErrors.isStorable(group) {
            filters.append("false") // no group id holds a NUL
        } else if let group = listQuery.group {
            filters.append("""
                users.seq IN (SELECT memberships.user_seq FROM memberships \
                JOIN groups ON groups.seq = memberships.group_seq WHERE groups.id = \(group))
                """)
        }
        self.filters = filters
        skipsInIndex = listQuery.group == nil && (kind == .everyone || kind == .scanned)
        searchesKeys = listQuery.group == nil && kind == .indexed
        marksKey = skipsInIndex ? PostgresPageMarks.ListKey(sort: query.sort, search: kind == .scanned ? search : nil,
                                                            role: query.role, status: query.status) : nil

        let condition = Self.whereClause(filters)
        let count: PostgresSQL
        switch (kind, listQuery.group) {
        case (.everyone, nil):
            // Unsearched lists of everyone (or by role and status) add up the kept counts.
            count = "SELECT coalesce(sum(n), 0)::bigint FROM users_count \(Self.whereClause(counted))"
        case (.scanned, nil):
            count = "SELECT coalesce(sum(n), 0)::bigint FROM users_short_count \(Self.whereClause(["gram = \(search)"] + counted))"
        case (.indexed, nil):
            count = "SELECT count(*) FROM user_keys AS users \(condition)"
        default:
            count = "SELECT count(*) FROM users \(condition)"
        }
        self.count = count.query
    }

    /// Whether the page is nearer the end of the list than its start (as `ListPlan.readsFromEnd`):
    /// then `page(total:)` reads it in the reversed order, and its rows come last first.
    func readsFromEnd(total: Int) -> Bool {
        offset < total && offset > total - offset - limit
    }

    /// The page's statement, once the total (read first, in the same snapshot) is known.
    func page(total: Int) -> PostgresQuery {
        let paging: PostgresSQL
        let order: String
        if readsFromEnd(total: total) {
            let rows = min(limit, total - offset)
            paging = "LIMIT \(rows) OFFSET \(total - offset - rows)"
            order = ListPlan.reversedOrderBy(sort)
        } else {
            paging = "LIMIT \(limit) OFFSET \(offset)"
            order = ListPlan.orderBy(sort)
        }
        guard skipsInIndex else {
            return ("SELECT users.json FROM users \(condition) ORDER BY \(unescaped: order) \(paging)" as PostgresSQL).query
        }
        // The sort's columns and the filtered ones are all in its index, so the walk is an
        // index-only scan; the page's rows are then found by their unique key (the email for
        // email sorts, else the id).
        let key = sort == .email || sort == .emailDescending ? "email_key" : "id"
        let walk: PostgresSQL = """
            SELECT stored.json FROM (SELECT \(unescaped: Self.sortColumns(sort)) FROM users \(condition) \
            ORDER BY \(unescaped: order) \(paging)) AS users \
            JOIN users AS stored ON stored.\(unescaped: key) = users.\(unescaped: key) ORDER BY \(unescaped: order)
            """
        return walk.query
    }

    /// A trigram search of everyone, in one statement: its hits are read once, from the narrow
    /// `user_keys` (its own trigram index; rows of a few dozen bytes, the sort's and the
    /// filters' columns), counted over the whole result as they are sorted for the page, and
    /// only the page's JSON is looked up, by `seq`. Rows: `(total, json)`, in order; none when
    /// the page is past the end (then `count` gives the total).
    func searchPage() -> PostgresQuery {
        let order = ListPlan.orderBy(sort)
        let search: PostgresSQL = """
            SELECT users.total, stored.json FROM (SELECT users.seq, \(unescaped: Self.sortColumns(sort)), count(*) OVER () AS total \
            FROM user_keys AS users \(condition) ORDER BY \(unescaped: order) LIMIT \(limit) OFFSET \(offset)) AS users \
            JOIN users AS stored ON stored.seq = users.seq ORDER BY \(unescaped: order)
            """
        return search.query
    }

    /// The sort's columns, as `users.…` (the unique key last).
    static func sortColumns(_ sort: UserSort) -> String {
        switch sort {
        case .email, .emailDescending: "users.email_key"
        case .createdAt, .createdAtDescending: "users.created_at, users.id"
        case .name, .nameDescending, .directory: "users.name_key, users.id"
        }
    }

    /// The page of a list walked in the sort's index (`marksKey`) from a kept boundary (`PostgresPageMarks`): the
    /// rows from `mark` on (the mark's row included) in the list's order (`backward` false) or
    /// back from it (in the reversed order, so they come last first), `skip` of them skipped,
    /// then `rows` read, in an index-only scan of the sort's index that starts at the mark; with
    /// no mark, from the start (or the end). Rows: `(json, sort columns…)`.
    func seekPage(from mark: PostgresPageMarks.Mark?, backward: Bool, skip: Int, rows: Int) -> PostgresQuery {
        var walked = filters
        if let mark {
            let (primary, id) = Self.markColumns(sort)
            let value: PostgresSQL = switch mark.primary {
            case .text(let text): "\(text)"
            case .integer(let integer): "\(integer)"
            }
            // Whether the walk goes up the primary column's values (the order's direction).
            let descendingSort = sort == .nameDescending || sort == .emailDescending || sort == .createdAtDescending
            let up = descendingSort == backward
            let (past, fromMark) = up ? (">", ">=") : ("<", "<=")
            if let id, let markID = mark.id {
                // Ties are broken by ascending id in either order; reversed, by descending id.
                let idFromMark = backward ? "<=" : ">="
                if descendingSort {
                    // The index runs the primary column one way and the id the other: seek on the
                    // primary column, and leave out the tied rows on the near side of the mark.
                    walked.append("""
                        \(unescaped: primary) \(unescaped: fromMark) \(value) \
                        AND (\(unescaped: primary) \(unescaped: past) \(value) OR \(unescaped: id) \(unescaped: idFromMark) \(markID))
                        """)
                } else {
                    walked.append("(\(unescaped: primary), \(unescaped: id)) \(unescaped: fromMark) (\(value), \(markID))")
                }
            } else {
                walked.append("\(unescaped: primary) \(unescaped: fromMark) \(value)")
            }
        }
        let order = backward ? ListPlan.reversedOrderBy(sort) : ListPlan.orderBy(sort)
        let key = sort == .email || sort == .emailDescending ? "email_key" : "id"
        let columns = Self.sortColumns(sort)
        let seek: PostgresSQL = """
            SELECT stored.json, \(unescaped: columns) FROM (SELECT \(unescaped: columns) FROM users \(Self.whereClause(walked)) \
            ORDER BY \(unescaped: order) LIMIT \(rows) OFFSET \(skip)) AS users \
            JOIN users AS stored ON stored.\(unescaped: key) = users.\(unescaped: key) ORDER BY \(unescaped: order)
            """
        return seek.query
    }

    /// The sort's primary column and its tie-breaker (none for the unique email).
    private static func markColumns(_ sort: UserSort) -> (primary: String, id: String?) {
        switch sort {
        case .email, .emailDescending: ("users.email_key", nil)
        case .createdAt, .createdAtDescending: ("users.created_at", "users.id")
        case .name, .nameDescending, .directory: ("users.name_key", "users.id")
        }
    }

    /// The search as `user_keys` matches it: both keys in one text, one trigram index. The
    /// newline between them is in no key and in no search (validation keeps control characters
    /// out of both), so a match is a match within one key.
    static func keysMatch(_ table: String, _ pattern: String) -> PostgresSQL {
        "(\(unescaped: table).name_key || E'\\n' || \(unescaped: table).email_key) LIKE \(pattern)"
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

    private static func whereClause(_ conditions: [PostgresSQL]) -> PostgresSQL {
        conditions.isEmpty ? "" : "WHERE \(PostgresSQL.joined(conditions, separator: " AND "))"
    }
}
