/// A filter written back as text `SCIMFilterParser` reads to the same tree: operators in lower
/// case, strings as JSON strings (`SCIMJSONWriter`), numbers as they were written, and
/// parentheses only where precedence needs them (`and` binds tighter than `or`, both group to
/// the left). For messages and logs; the property tests hold parse(print(f)) == f.
extension SCIMFilter: CustomStringConvertible {
    var description: String {
        switch self {
        case .or(let left, let right):
            return "\(left) or \(Self.grouped(right, if: right.isOr))"
        case .and(let left, let right):
            return "\(Self.grouped(left, if: left.isOr)) and \(Self.grouped(right, if: right.isOr || right.isAnd))"
        case .not(let inner):
            return "not (\(inner))"
        case .present(let path):
            return "\(path.description) pr"
        case .compare(let path, let op, let literal):
            return "\(path.description) \(op.rawValue) \(literal)"
        case .valuePath(let path, let inner):
            return "\(path.description)[\(inner)]"
        }
    }

    private var isOr: Bool { if case .or = self { true } else { false } }
    private var isAnd: Bool { if case .and = self { true } else { false } }

    private static func grouped(_ filter: SCIMFilter, if needed: Bool) -> String {
        needed ? "(\(filter))" : filter.description
    }
}

extension SCIMLiteral: CustomStringConvertible {
    var description: String {
        switch self {
        case .string(let text): SCIMJSONWriter.text(.string(text))
        case .number(let literal): literal
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }
}
