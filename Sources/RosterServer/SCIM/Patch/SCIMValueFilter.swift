import RosterKit

/// Matches a PATCH path's value filter against the entries of one attribute of one resource
/// (`emails[type eq "work"]`, `members[value eq "…"]`). This is the only place a filter is
/// evaluated in memory: on a resource already read for the PATCH, never over a list.
struct SCIMValueFilter {
    /// The multi-valued attribute's definition, if the schema has it: case-exactness and types.
    let attribute: SCIMAttribute?

    func matches(_ filter: SCIMFilter, _ entry: SCIMValue) throws(SCIMProblem) -> Bool {
        switch filter {
        case .and(let left, let right):
            guard try matches(left, entry) else { return false }
            return try matches(right, entry)
        case .or(let left, let right):
            if try matches(left, entry) { return true }
            return try matches(right, entry)
        case .not(let inner): return try !matches(inner, entry)
        case .present(let path): return !(value(path, in: entry)?.isUnassigned ?? true) && value(path, in: entry) != .string("")
        case .compare(let path, let op, let literal): return try compare(value(path, in: entry), op, literal, caseExact: caseExact(path))
        case .valuePath: throw .invalidPath("A value filter cannot contain another one.")
        }
    }

    private func value(_ path: SCIMAttributePath, in entry: SCIMValue) -> SCIMValue? {
        if case .object(let object) = entry { return object[path.name] }
        // Entries that are plain values are their own "value".
        return path.name.caseInsensitiveEquals("value") ? entry : nil
    }

    private func caseExact(_ path: SCIMAttributePath) -> Bool {
        guard let sub = attribute?.subAttribute(path.name) else { return false }
        return sub.caseExact || sub.kind == .binary
    }

    private func compare(_ value: SCIMValue?, _ op: SCIMFilter.Operator, _ literal: SCIMLiteral, caseExact: Bool) throws(SCIMProblem) -> Bool {
        switch (value, literal) {
        case (nil, .null), (.null?, .null): return op == .eq
        case (_, .null): return op == .ne
        case (nil, _): return op == .ne
        case (.bool(let flag)?, .bool(let wanted)):
            switch op {
            case .eq: return flag == wanted
            case .ne: return flag != wanted
            default: throw .invalidPath("Booleans compare with eq or ne only.")
            }
        case (.number(let text)?, .number(let wanted)):
            guard let a = Double(text), let b = Double(wanted) else { return false }
            return ordered(a, b, op)
        case (.string(let text)?, .string(let wanted)):
            let a = caseExact ? text : SortKey.of(text)
            let b = caseExact ? wanted : SortKey.of(wanted)
            switch op {
            case .co: return a.contains(b)
            case .sw: return a.hasPrefix(b)
            case .ew: return a.hasSuffix(b)
            default:
                // Date-times compare as times when both sides are ones.
                if let x = ISO8601Timestamp.parse(text), let y = ISO8601Timestamp.parse(wanted) { return ordered(x, y, op) }
                return orderedText(a, b, op)
            }
        default:
            return op == .ne
        }
    }

    /// Code point order, as SQLite's BINARY collation orders the same text in a list filter.
    private func orderedText(_ a: String, _ b: String, _ op: SCIMFilter.Operator) -> Bool {
        let less = a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        let greater = b.unicodeScalars.lexicographicallyPrecedes(a.unicodeScalars)
        switch op {
        case .eq: return !less && !greater
        case .ne: return less || greater
        case .gt: return greater
        case .ge: return !less
        case .lt: return less
        case .le: return !greater
        case .co, .sw, .ew: return false
        }
    }

    private func ordered<T: Comparable>(_ a: T, _ b: T, _ op: SCIMFilter.Operator) -> Bool {
        switch op {
        case .eq: a == b
        case .ne: a != b
        case .gt: a > b
        case .ge: a >= b
        case .lt: a < b
        case .le: a <= b
        case .co, .sw, .ew: false
        }
    }
}

