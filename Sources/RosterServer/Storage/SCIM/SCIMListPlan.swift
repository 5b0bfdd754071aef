import GRDB

/// The two statements behind one SCIM list or search: the page and `totalResults`. The filter
/// is SQL (`SCIMFilterSQL`); rows are ordered by `sortBy` with unassigned values last, ties
/// (and no `sortBy`) by insertion order, so pages are stable.
struct SCIMListPlan {
    var pageSQL: String
    var countSQL: String
    var filterArguments: [(any DatabaseValueConvertible)?]
    var limit: Int
    var offset: Int

    var pageArguments: StatementArguments { StatementArguments(filterArguments + [limit, offset]) }
    var countArguments: StatementArguments { StatementArguments(filterArguments) }

    struct Sort {
        var path: SCIMAttributePath
        var descending: Bool
    }

    /// - Parameters:
    ///   - table: `users` or `groups`; `columns` says how its attributes are reached.
    ///   - startIndex: 1-based, as SCIM counts.
    init(
        table: String, select: String, columns: some SCIMColumns & SCIMSortable, filter: SCIMFilter?,
        sort: Sort?, startIndex: Int, count: Int
    ) throws(SCIMProblem) {
        var whereClause = ""
        filterArguments = []
        if let filter {
            let condition = try SCIMFilterSQL.condition(filter, columns: columns)
            whereClause = " WHERE " + condition.sql
            filterArguments = condition.arguments
        }
        var order = "\(table).seq"
        if let sort {
            let direction = sort.descending ? " DESC" : ""
            let (expression, nullable) = try Self.sortExpression(sort.path, columns: columns)
            order = (nullable ? "(\(expression) IS NULL), " : "") + expression + direction + ", \(table).seq"
        }
        limit = count
        offset = max(0, startIndex - 1)
        pageSQL = "SELECT \(select) FROM \(table)\(whereClause) ORDER BY \(order) LIMIT ? OFFSET ?"
        countSQL = "SELECT count(*) FROM \(table)\(whereClause)"
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
            return (scalar.compared(caseExact: exact), !(scalar.rangeIndexed || scalar.milliseconds))
        case .multiValued(let multi):
            // RFC 7644 section 3.4.2.3: a multi-valued attribute sorts by its primary value, if
            // any, else by its first.
            let subName = resolved.subAttribute?.name ?? "value"
            guard let sub = resolved.attribute.subAttribute(subName), let scalar = multi.subAttribute(sub) else {
                throw .invalidValue("sortBy: \(path.description.prefix(100)) has no value to sort by.")
            }
            let expression = scalar.compared(caseExact: scalar.caseExact || scalar.kind != .string)
            let primaryFirst = multi.from.hasPrefix("json_each") ? " ORDER BY coalesce(json_extract(e.value, '$.primary'), 0) DESC, e.key" : ""
            let correlation = multi.correlation.map { " WHERE \($0)" } ?? ""
            return ("(SELECT \(expression) FROM \(multi.from)\(correlation)\(primaryFirst) LIMIT 1)", true)
        case .complex:
            throw .invalidValue("sortBy: \(path.description.prefix(100)) is complex; sort by one of its sub-attributes.")
        }
    }
}

/// Attributes whose sort order has a better expression than their filter one.
protocol SCIMSortable {
    func sortExpression(_ attribute: ResolvedAttribute) -> String?
}

extension SCIMUserColumns: SCIMSortable {}
extension SCIMGroupColumns: SCIMSortable {}
