import RosterKit

/// Reads JSON text into `SCIMValue`, keeping member order and number literals. Strict RFC 8259:
/// anything else is a `SCIMProblem.invalidSyntax`. Depth is bounded so a hostile body cannot
/// exhaust the stack. The reading is RosterKit's `JSONTextReader`, the one the client's
/// `JSONValue` is read with too; `SCIMValueBuilder` makes this tree and sets the strict rules.
enum SCIMJSONParser {
    static let maximumDepth = 64

    static func parse(_ bytes: some Sequence<UInt8>) throws(SCIMProblem) -> SCIMValue {
        do {
            return try JSONTextReader.read(Array(bytes), with: SCIMValueBuilder())
        } catch {
            throw .invalidSyntax("The request body is not valid JSON: \(error.reason) at byte \(error.offset).")
        }
    }

    static func parse(_ text: String) throws(SCIMProblem) -> SCIMValue {
        try parse(Array(text.utf8))
    }
}

/// `SCIMValue` from `JSONTextReader`: numbers kept as written, members in their order, no
/// allowance beyond RFC 8259.
struct SCIMValueBuilder: JSONTreeBuilder {
    var maximumDepth: Int { SCIMJSONParser.maximumDepth }
    var allowsTrailingCommas: Bool { false }
    var skipsByteOrderMark: Bool { false }

    func null() -> SCIMValue { .null }
    func bool(_ value: Bool) -> SCIMValue { .bool(value) }
    func string(_ text: String) -> SCIMValue { .string(text) }
    func number(_ literal: String, isInteger: Bool) -> SCIMValue? { .number(literal) }
    func array(_ elements: [SCIMValue]) -> SCIMValue { .array(elements) }
    func members() -> SCIMObject { SCIMObject() }

    /// A repeated name keeps the last value, as most parsers do; SCIM names ignore case.
    func add(_ name: String, _ value: SCIMValue, to members: inout SCIMObject) {
        members[name] = nil
        members.members.append(SCIMObject.Member(name: name, value: value))
    }

    func object(_ members: SCIMObject) -> SCIMValue { .object(members) }
}
