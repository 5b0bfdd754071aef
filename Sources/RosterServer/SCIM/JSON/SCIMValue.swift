/// A JSON value that keeps what a client sent: members in their order and numbers as written.
///
/// SCIM resources carry attributes roster-server does not model (other extensions, addresses,
/// an identity provider's own schema); they are stored as sent and must come back the same.
/// `JSONSerialization` and `Codable` lose member order and rewrite numbers (`1.0` becomes `1`),
/// so SCIM bodies are read and written with this type (`SCIMJSONParser`, `SCIMJSONWriter`).
indirect enum SCIMValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's literal text, valid JSON by construction (the parser checked it).
    case number(String)
    case string(String)
    case array([SCIMValue])
    case object(SCIMObject)

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var array: [SCIMValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var object: SCIMObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Null and the empty array both mean "no value" in SCIM (RFC 7643 section 2.5).
    var isUnassigned: Bool {
        switch self {
        case .null: true
        case .array(let items): items.isEmpty
        default: false
        }
    }

    static func number(_ value: Int) -> SCIMValue { .number(String(value)) }
}

/// A JSON object with its members in order. Attribute names are case-insensitive in SCIM
/// (RFC 7643 section 2.1): lookups ignore case and a set keeps the spelling already stored.
struct SCIMObject: Sendable, Equatable {
    struct Member: Sendable, Equatable {
        var name: String
        var value: SCIMValue
    }

    var members: [Member] = []

    init(_ members: [Member] = []) {
        self.members = members
    }

    init(_ pairs: KeyValuePairs<String, SCIMValue>) {
        members = pairs.map { Member(name: $0.key, value: $0.value) }
    }

    var isEmpty: Bool { members.isEmpty }

    func index(of name: String) -> Int? {
        members.firstIndex { $0.name.caseInsensitiveEquals(name) }
    }

    subscript(name: String) -> SCIMValue? {
        get { index(of: name).map { members[$0].value } }
        set {
            if let index = index(of: name) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(name: name, value: newValue))
            }
        }
    }

    /// Removes every member whose name is one of `names` (ignoring case).
    mutating func remove(_ names: [String]) {
        members.removeAll { member in names.contains { member.name.caseInsensitiveEquals($0) } }
    }
}

extension String {
    /// ASCII case folding: every name SCIM defines is ASCII, and a URN compares the same way.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return zip(utf8, other.utf8).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
        }
    }
}
