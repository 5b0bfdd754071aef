import Foundation

/// `JSONValue` as `JSONDecoder` reads it through `JSONValue.init(from:)`, built by
/// `JSONTextReader` without Codable's guessing. Codable cannot ask a value's kind, so each value
/// is tried as a string, an object, an array, then the scalars, and every wrong guess throws a
/// `DecodingError`: a SCIM page of 50 users (32 KB) took 4.0–6.5 ms that way and 0.5–0.6 ms
/// this way, 3.9–7.7 against 0.7–1.0 ms as a start's first read (docs/benchmarks.md, "Issue 28,
/// twelfth pass"). Foundation's `JSONSerialization` is faster than Codable but rounds some
/// doubles off by one unit in the last place, and a resource must go back to the server as it
/// came. JSONValueParsingTests hold this equal to `JSONDecoder` on edge cases, random
/// documents and broken ones; so are `JSONDecoder`'s allowances kept: a trailing comma, a
/// byte order mark, and the first of a repeated name.
struct JSONValueBuilder: JSONTreeBuilder {
    var maximumDepth: Int { 512 }
    var allowsTrailingCommas: Bool { true }
    var skipsByteOrderMark: Bool { true }

    func null() -> JSONValue { .null }
    func bool(_ value: Bool) -> JSONValue { .bool(value) }
    func string(_ text: String) -> JSONValue { .string(text) }

    /// An integer, a Double or a Decimal as `init(from:)` decides (`JSONValue.number(_:exactly:)`);
    /// nil beyond a Double's range, which JSONDecoder refuses.
    func number(_ literal: String, isInteger: Bool) -> JSONValue? {
        if isInteger, let integer = Int64(literal) { return .integer(integer) }
        guard let double = Double(literal), double.isFinite else { return nil }
        return JSONValue.number(double, exactly: Decimal(string: literal))
    }

    func array(_ elements: [JSONValue]) -> JSONValue { .array(elements) }
    func members() -> [String: JSONValue] { [:] }

    /// A name given twice keeps its first value, as JSONDecoder keeps it.
    func add(_ name: String, _ value: JSONValue, to members: inout [String: JSONValue]) {
        if members[name] == nil { members[name] = value }
    }

    func object(_ members: [String: JSONValue]) -> JSONValue { .object(members) }
}
