import PostgresNIO
import RosterKit

/// The two statements behind one user list request on PostgreSQL: the page of stored JSON and
/// the total. Filters are the same as SQLite's `ListPlan`; search is `LIKE '%…%'` on the folded
/// keys, which the trigram index (`users_search`) answers for three characters and more.
struct PostgresListQuery {
    var page: PostgresQuery
    var count: PostgresQuery
    var offset: Int

    init(_ listQuery: UserListQuery) {
        let query = listQuery.base
        let (product, overflow) = (query.page - 1).multipliedReportingOverflow(by: query.perPage)
        offset = overflow ? Int(Int32.max) : max(0, product)

        var binds = PostgresBindings()
        func bind(_ value: String) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        var filters: [String] = []
        let search = query.search.map(SortKey.of) ?? ""
        if search.unicodeScalars.contains(where: UserValidation.isForbiddenInText) {
            // Validation keeps control characters out of every name and email.
            filters.append("false")
        } else if !search.isEmpty {
            let pattern = bind("%" + Self.escapedForLike(search) + "%")
            filters.append("(users.name_key LIKE \(pattern) OR users.email_key LIKE \(pattern))")
        }
        if let role = query.role { filters.append("users.role = \(bind(role.rawValue))") }
        if let status = query.status { filters.append("users.status = \(bind(status.rawValue))") }
        if let group = listQuery.group, !PostgresErrors.isStorable(group) {
            filters.append("false") // no group id holds a NUL
        } else if let group = listQuery.group {
            filters.append("""
                users.seq IN (SELECT memberships.user_seq FROM memberships \
                JOIN groups ON groups.seq = memberships.group_seq WHERE groups.id = \(bind(group)))
                """)
        }
        let condition = filters.isEmpty ? "" : "WHERE " + filters.joined(separator: " AND ")
        let countBinds = binds
        // Unsearched lists of everyone (or by role and status) add up the kept counts.
        let countSQL = search.isEmpty && listQuery.group == nil
            ? "SELECT coalesce(sum(n), 0)::bigint FROM users_count \(condition.replacingOccurrences(of: "users.", with: ""))"
            : "SELECT count(*) FROM users \(condition)"
        count = PostgresQuery(unsafeSQL: countSQL, binds: countBinds)

        binds.append(query.perPage)
        let limit = "$\(binds.count)"
        binds.append(offset)
        let offsetParameter = "$\(binds.count)"
        page = PostgresQuery(
            unsafeSQL: "SELECT users.json FROM users \(condition) ORDER BY \(Self.orderBy(query.sort)) LIMIT \(limit) OFFSET \(offsetParameter)",
            binds: binds)
    }

    /// Ties are broken by ascending id in both directions, as the client's ordering does.
    static func orderBy(_ sort: UserSort) -> String {
        switch sort {
        case .name: "users.name_key, users.id"
        case .nameDescending: "users.name_key DESC, users.id"
        case .email: "users.email_key"
        case .emailDescending: "users.email_key DESC"
        case .createdAt: "users.created_at, users.id"
        case .createdAtDescending: "users.created_at DESC, users.id"
        }
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
}
