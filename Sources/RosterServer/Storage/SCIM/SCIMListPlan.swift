/// The two statements behind one SCIM list or search: the page and `totalResults`, in the
/// store's dialect. The filter is SQL (`SCIMFilterSQL`); rows are ordered by `sortBy` with
/// unassigned values last, ties (and no `sortBy`) by insertion order, so pages are stable.
struct SCIMListPlan {
    var pageSQL: String
    /// `pageSQL` for SQLite once the store has chosen the filter's index over a walk of the
    /// table (`SQLiteStore.walkedFraction`): with no `sortBy` it orders by `+seq`, which no
    /// index serves, so the planner cannot walk the table in `seq` order to skip the sort.
    /// It would for a range it has no statistics for: `meta.lastModified gt` a time that the
    /// last 1,000 of a million users match read 999,000 rows in `seq` order (148 ms), where
    /// `users_updated` finds the 1,000 and sorts them.
    var filterIndexPageSQL: String
    var countSQL: String
    /// The filter's arguments, then the page's limit and offset: `countSQL` takes only the first.
    var pageArguments: [SQLArgument]
    var countArguments: [SQLArgument] { Array(pageArguments.dropLast(2)) }
    var limit: Int
    var offset: Int
    /// Whether rows are in `seq` order (no `sortBy`).
    var inTableOrder: Bool
    /// Whether a filtered list's page could be read by walking the table (`tableOrderPage`).
    var walksTable: Bool { inTableOrder && condition != nil }
    private let select: String
    private let table: String
    /// The filter (nil for none) and its arguments, for `tableOrderPage`.
    private let condition: String?
    private let conditionArguments: SQLArguments

    struct Sort: Sendable {
        var path: SCIMAttributePath
        var descending: Bool
    }

    /// - Parameters:
    ///   - select: the columns a row is read as; `columns` says how attributes are reached.
    init(select: String, columns: some SCIMColumns & SCIMSortable, query: SCIMListQuery) throws(SCIMProblem) {
        let table = columns.table
        var whereClause = ""
        var arguments = SQLArguments(dialect: columns.dialect)
        var filterSQL: String?
        if let filter = query.filter {
            let condition = try SCIMFilterSQL.condition(filter, columns: columns)
            whereClause = " WHERE " + condition.sql
            arguments = condition.arguments
            filterSQL = condition.sql
        }
        self.select = select
        self.table = table
        condition = filterSQL
        conditionArguments = arguments
        inTableOrder = query.sort == nil
        var order = "\(table).seq"
        if let sort = query.sort {
            let direction = sort.descending ? " DESC" : ""
            let (expression, nullable) = try Self.sortExpression(sort.path, columns: columns)
            order = (nullable ? "(\(expression) IS NULL), " : "") + expression + direction + ", \(table).seq"
        }
        limit = query.count
        offset = max(0, query.startIndex - 1)
        countSQL = "SELECT count(*) FROM \(table)\(whereClause)"
        let limitPlaceholder = arguments.bind(.integer(Int64(limit)))
        let offsetPlaceholder = arguments.bind(.integer(Int64(offset)))
        pageSQL = "SELECT \(select) FROM \(table)\(whereClause) ORDER BY \(order) LIMIT \(limitPlaceholder) OFFSET \(offsetPlaceholder)"
        // Without a filter, `+seq` would sort the whole table for every page (26.8 ms a first
        // page at 100,000 users, 3.1 through `seq`'s own order; docs/benchmarks.md, "Issue 28,
        // twelfth pass").
        filterIndexPageSQL = query.sort == nil && filterSQL != nil
            ? "SELECT \(select) FROM \(table)\(whereClause) ORDER BY +\(table).seq LIMIT \(limitPlaceholder) OFFSET \(offsetPlaceholder)"
            : pageSQL
        pageArguments = arguments.values
    }

    /// The page of a filtered list in `seq` order, read by walking the table in that order
    /// up to `lastSeq` and no further, in SQLite's words (`NOT INDEXED`). Matches up to a `seq`
    /// are the first of all matches in that order, so a walk that finds a whole page found
    /// the page. See `SQLiteStore.walksTableInOrder`.
    func tableOrderPage(upToSeq lastSeq: Int64) -> (sql: String, arguments: [SQLArgument])? {
        guard inTableOrder, let condition else { return nil }
        var arguments = conditionArguments
        let bound = arguments.bind(.integer(lastSeq))
        let limitPlaceholder = arguments.bind(.integer(Int64(limit)))
        let offsetPlaceholder = arguments.bind(.integer(Int64(offset)))
        let sql = """
            SELECT \(select) FROM \(table) NOT INDEXED WHERE (\(condition)) AND \(table).seq <= \(bound) \
            ORDER BY \(table).seq LIMIT \(limitPlaceholder) OFFSET \(offsetPlaceholder)
            """
        return (sql, arguments.values)
    }

    /// What a row sorts by, and whether it can be NULL (unassigned values sort last).
    private static func sortExpression(_ path: SCIMAttributePath, columns: some SCIMColumns & SCIMSortable) throws(SCIMProblem) -> (String, Bool) {
        guard let resolved = columns.resourceType.resolve(path) else {
            throw .invalidValue("sortBy: a \(columns.resourceType.name) has no attribute “\(path.description.prefix(100))”.")
        }
        if let special = columns.sortExpression(resolved) { return (special, false) }
        switch columns.target(resolved) {
        case .scalar(let scalar):
            let exact = scalar.caseExact || scalar.kind != .string
            return (scalar.compared(caseExact: exact, dialect: columns.dialect), !(scalar.rangeIndexed || scalar.milliseconds))
        case .multiValued(let multi):
            // RFC 7644 section 3.4.2.3: a multi-valued attribute sorts by its primary value, if
            // any, else by its first.
            let subName = resolved.subAttribute?.name ?? "value"
            guard let sub = resolved.attribute.subAttribute(subName), let scalar = multi.subAttribute(sub) else {
                throw .invalidValue("sortBy: \(path.description.prefix(100)) has no value to sort by.")
            }
            let expression = scalar.compared(caseExact: scalar.caseExact || scalar.kind != .string, dialect: columns.dialect)
            let primaryFirst = multi.order.map { " ORDER BY \($0)" } ?? ""
            let correlation = multi.correlation.map { " WHERE \($0)" } ?? ""
            return ("(SELECT \(expression) FROM \(multi.from)\(correlation)\(primaryFirst) LIMIT 1)", true)
        case .complex:
            throw .invalidValue("sortBy: \(path.description.prefix(100)) is complex; sort by one of its sub-attributes.")
        }
    }
}

/// What a list or search asks of the store, whatever its dialect.
struct SCIMListQuery: Sendable {
    var filter: SCIMFilter?
    var sort: SCIMListPlan.Sort?
    /// 1-based, as SCIM counts.
    var startIndex: Int
    var count: Int
}

/// Attributes whose sort order has a better expression than their filter one.
protocol SCIMSortable {
    func sortExpression(_ attribute: ResolvedAttribute) -> String?
}

extension SCIMUserColumns: SCIMSortable {}
extension SCIMGroupColumns: SCIMSortable {}
