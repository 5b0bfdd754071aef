import RosterKit

/// Translates a `SCIMFilter` into a SQL condition over one resource type's table, with its
/// values as bound arguments. An attribute the type's schemas do not have, an operator that
/// does not apply to the attribute's type, or a value of the wrong type is `invalidFilter`.
///
/// Absent attributes are NULL in SQL; a comparison with NULL is neither true nor false, so a
/// `not` (and `ne`, which is "not eq") coalesces its operand to false first: `not (title eq "x")`
/// matches users without a title, as it should.
struct SCIMFilterSQL {
    let columns: any SCIMColumns
    private(set) var arguments: SQLArguments
    private var dialect: any SCIMSQLDialect { columns.dialect }

    init(columns: any SCIMColumns) {
        self.columns = columns
        arguments = SQLArguments(dialect: columns.dialect)
    }

    /// The condition and its arguments (to which a statement may add its own after).
    static func condition(_ filter: SCIMFilter, columns: any SCIMColumns) throws(SCIMProblem) -> (sql: String, arguments: SQLArguments) {
        var compiler = SCIMFilterSQL(columns: columns)
        let sql = try compiler.compile(filter)
        return (sql, compiler.arguments)
    }

    mutating func compile(_ filter: SCIMFilter) throws(SCIMProblem) -> String {
        switch filter {
        case .and(let left, let right):
            return "(\(try compile(left)) AND \(try compile(right)))"
        case .or(let left, let right):
            return "(\(try compile(left)) OR \(try compile(right)))"
        case .not(let inner):
            return "(NOT coalesce(\(try compile(inner)), \(dialect.falseLiteral)))"
        case .present(let path):
            switch try target(path) {
            case .scalar(let scalar):
                return present(scalar)
            case .complex(let json):
                return dialect.isPresentComplex(json)
            case .multiValued(let multi):
                return try matching(multi) { (compiler: inout SCIMFilterSQL, subs: SubAttributes) throws(SCIMProblem) -> String? in
                    guard let subName = path.subAttribute else { return nil }
                    return compiler.present(try compiler.subScalar(subs, named: subName, of: path))
                }
            }
        case .compare(let path, let op, let literal):
            switch try target(path) {
            case .scalar(let scalar):
                return try comparison(scalar, op, literal, path: path)
            case .complex:
                throw .invalidFilter("\(path.description) is complex: compare one of its sub-attributes, such as \(path.name).\(firstSubName(path) ?? "value").")
            case .multiValued(let multi):
                return try matching(multi) { (compiler: inout SCIMFilterSQL, subs: SubAttributes) throws(SCIMProblem) -> String? in
                    let sub = try compiler.subScalar(subs, named: path.subAttribute ?? "value", of: path)
                    return try compiler.comparison(sub, op, literal, path: path)
                }
            }
        case .valuePath(let path, let inner):
            guard case .multiValued(let multi) = try target(path) else {
                throw .invalidFilter("\(path.description)[…]: a value filter needs a multi-valued attribute.")
            }
            return try matching(multi) { (compiler: inout SCIMFilterSQL, subs: SubAttributes) throws(SCIMProblem) -> String? in
                try compiler.compileEntry(inner, of: subs, attribute: path)
            }
        }
    }

    /// A value filter's inside: its paths name sub-attributes of the entries.
    private mutating func compileEntry(_ filter: SCIMFilter, of multi: SubAttributes, attribute: SCIMAttributePath) throws(SCIMProblem) -> String {
        switch filter {
        case .and(let left, let right):
            return "(\(try compileEntry(left, of: multi, attribute: attribute)) AND \(try compileEntry(right, of: multi, attribute: attribute)))"
        case .or(let left, let right):
            return "(\(try compileEntry(left, of: multi, attribute: attribute)) OR \(try compileEntry(right, of: multi, attribute: attribute)))"
        case .not(let inner):
            return "(NOT coalesce(\(try compileEntry(inner, of: multi, attribute: attribute)), \(dialect.falseLiteral)))"
        case .present(let path):
            return present(try entryScalar(path, of: multi, attribute: attribute))
        case .compare(let path, let op, let literal):
            let sub = try entryScalar(path, of: multi, attribute: attribute)
            return try comparison(sub, op, literal, path: SCIMAttributePath(name: attribute.name, subAttribute: path.name))
        case .valuePath:
            throw .invalidFilter("A value filter cannot contain another one.")
        }
    }

    private func entryScalar(_ path: SCIMAttributePath, of multi: SubAttributes, attribute: SCIMAttributePath) throws(SCIMProblem) -> SQLScalar {
        guard path.schema == nil, path.subAttribute == nil else {
            throw .invalidFilter("Inside \(attribute.name)[…], name a sub-attribute of \(attribute.name), such as value or type.")
        }
        return try subScalar(multi, named: path.name, of: attribute)
    }

    private func target(_ path: SCIMAttributePath) throws(SCIMProblem) -> SQLTarget {
        guard let resolved = columns.resourceType.resolve(path) else {
            throw .invalidFilter("A \(columns.resourceType.name) has no attribute “\(path.description.prefix(100))”.")
        }
        if resolved.attribute.name == "meta", let sub = resolved.subAttribute, ["location", "version"].contains(sub.name) {
            throw .invalidFilter("meta.\(sub.name) cannot be filtered on.")
        }
        return columns.target(resolved)
    }

    private func subScalar(_ multi: SubAttributes, named name: String, of path: SCIMAttributePath) throws(SCIMProblem) -> SQLScalar {
        guard let resolved = columns.resourceType.resolve(SCIMAttributePath(schema: path.schema, name: path.name)),
              let sub = resolved.attribute.subAttribute(name), let scalar = multi(sub)
        else {
            throw .invalidFilter("\(path.name) has no sub-attribute “\(name.prefix(60))” to filter on.")
        }
        return scalar
    }

    private func firstSubName(_ path: SCIMAttributePath) -> String? {
        columns.resourceType.resolve(path)?.attribute.subAttributes.first?.name
    }

    typealias SubAttributes = (SCIMAttribute) -> SQLScalar?

    /// The rows whose entries of `multi` match `condition` (compiled against the entries'
    /// sub-attributes; nil for any entry at all): from the indexed entry rows where there are
    /// some, each row set with its own SQL, else from each row's own entries.
    private mutating func matching(
        _ multi: SQLMultiValued, _ condition: (inout SCIMFilterSQL, SubAttributes) throws(SCIMProblem) -> String?
    ) throws(SCIMProblem) -> String {
        guard let indexed = multi.indexed else {
            return exists(multi, try condition(&self, multi.subAttribute))
        }
        var selects: [String] = []
        for source in indexed.sources {
            let conditions = [source.condition, try condition(&self, source.subAttribute)].compactMap { $0 }
            let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            selects.append("SELECT \(source.key) FROM \(source.from)\(whereClause)")
        }
        return "(\(indexed.outerKey) IN (\(selects.joined(separator: " UNION ALL "))))"
    }

    private func exists(_ multi: SQLMultiValued, _ condition: String?) -> String {
        let conditions = [multi.correlation, condition].compactMap { $0 }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return "EXISTS (SELECT 1 FROM \(multi.from)\(whereClause))"
    }

    private mutating func bind(_ value: SQLArgument) -> String {
        arguments.bind(value)
    }

    /// Text is present when not empty; anything else when not NULL.
    private func present(_ scalar: SQLScalar) -> String {
        scalar.isText ? "(coalesce(\(scalar.sql), '') <> '')" : "(\(scalar.sql) IS NOT NULL)"
    }

    private mutating func comparison(_ scalar: SQLScalar, _ op: SCIMFilter.Operator, _ literal: SCIMLiteral, path: SCIMAttributePath) throws(SCIMProblem) -> String {
        let compared = try valueComparison(scalar, op, literal, path: path)
        guard let only = scalar.onlyWhere, literal != .null, op != .ne else { return compared }
        return "(\(only) AND \(compared))"
    }

    private mutating func valueComparison(_ scalar: SQLScalar, _ op: SCIMFilter.Operator, _ literal: SCIMLiteral, path: SCIMAttributePath) throws(SCIMProblem) -> String {
        let name = path.description.prefix(100)
        if literal == .null {
            switch op {
            case .eq: return "(\(scalar.sql) IS NULL)"
            case .ne: return "(\(scalar.sql) IS NOT NULL)"
            default: throw .invalidFilter("null can only be compared with eq or ne.")
            }
        }
        switch scalar.kind {
        case .boolean:
            guard case .bool(let flag) = literal else { throw .invalidFilter("\(name) is true or false; compare it with true or false.") }
            switch op {
            case .eq: return "(\(scalar.sql) = \(bind(.boolean(flag))))"
            case .ne: return "(NOT coalesce(\(scalar.sql) = \(bind(.boolean(flag))), \(dialect.falseLiteral)))"
            default: throw .invalidFilter("\(name) is a boolean: only eq and ne apply.")
            }
        case .dateTime:
            guard case .string(let text) = literal, let date = ISO8601Timestamp.parse(text) else {
                throw .invalidFilter("\(name) is a date-time; compare it with a quoted ISO 8601 time, such as \"2026-01-31T00:00:00Z\".")
            }
            let value: SQLArgument = scalar.milliseconds ? .integer(Milliseconds.of(date)) : .text(text)
            return try ordered(scalar.sql, op, value, name: name)
        case .integer, .decimal:
            guard case .number(let text) = literal, let number = Double(text) else { throw .invalidFilter("\(name) is a number; compare it with a number.") }
            return try ordered(scalar.sql, op, .real(number), name: name)
        case .complex:
            throw .invalidFilter("\(name) is complex: compare one of its sub-attributes.")
        case .string, .reference, .binary:
            guard case .string(let text) = literal else { throw .invalidFilter("\(name) is a string; compare it with a quoted string.") }
            let exact = scalar.caseExact || scalar.kind == .binary
            let expression = scalar.compared(caseExact: exact, dialect: dialect)
            let value = exact ? text : SortKey.of(text)
            let length = Int64(value.unicodeScalars.count)
            switch op {
            case .co:
                let test = dialect.contains(expression, bind(.text(value)))
                return "(\(test)\(narrowed(scalar, value, exact: exact)))"
            case .sw:
                if scalar.rangeIndexed, let upper = Self.upperBound(ofPrefix: value) {
                    return "(\(expression) >= \(bind(.text(value))) AND \(expression) < \(bind(.text(upper))))"
                }
                return "(\(dialect.prefix(expression, length: bind(.integer(length)))) = \(bind(.text(value))))"
            case .ew:
                guard !value.isEmpty else { return "(\(expression) IS NOT NULL)" }
                let test = "\(dialect.suffix(expression, length: bind(.integer(length)))) = \(bind(.text(value)))"
                return "(\(test)\(narrowed(scalar, value, exact: exact)))"
            default:
                return try ordered(expression, op, .text(value), name: name)
            }
        }
    }

    /// ` AND` the rows a trigram index finds for `value`, for a folded `co` or `ew` of three
    /// characters or more (a shorter text has no trigram); else nothing. Bound after the
    /// test's own arguments, as it is written after them.
    private mutating func narrowed(_ scalar: SQLScalar, _ value: String, exact: Bool) -> String {
        guard let trigram = scalar.trigram, !exact, value.unicodeScalars.count >= 3 else { return "" }
        return " AND " + trigram.candidates(bind(.text(trigram.argument(value))))
    }

    private mutating func ordered(_ sql: String, _ op: SCIMFilter.Operator, _ value: SQLArgument, name: Substring) throws(SCIMProblem) -> String {
        switch op {
        case .eq: return "(\(sql) = \(bind(value)))"
        case .ne: return "(NOT coalesce(\(sql) = \(bind(value)), \(dialect.falseLiteral)))"
        case .gt: return "(\(sql) > \(bind(value)))"
        case .ge: return "(\(sql) >= \(bind(value)))"
        case .lt: return "(\(sql) < \(bind(value)))"
        case .le: return "(\(sql) <= \(bind(value)))"
        case .co, .sw, .ew: throw .invalidFilter("\(op.rawValue) applies to strings; \(name) is not one.")
        }
    }

    /// The least string above every string that starts with `prefix`, in code point order (the
    /// byte order of UTF-8: SQLite's BINARY collation, PostgreSQL's "C"): the prefix with its last scalar raised
    /// by one. Nil for an empty prefix, or one of only U+10FFFF (then `substr` is used).
    static func upperBound(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let raised = Unicode.Scalar(next) {
                scalars.append(raised)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                return String(view)
            }
        }
        return nil
    }
}
