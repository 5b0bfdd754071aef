import RosterKit
/// Distinguished names as strings (RFC 4514): a value escaped to sit in an RDN, and the value
/// of a DN's first RDN (a group's or a person's name as the tree shows it).
public enum LDAPDN {
    /// `value` with the characters RFC 4514 section 2.4 reserves escaped.
    public static func escape(_ value: String) -> String {
        var result = ""
        let characters = Array(value)
        for (index, character) in characters.enumerated() {
            switch character {
            case ",", "+", "\"", "\\", "<", ">", ";", "=":
                result += "\\\(character)"
            case "#" where index == 0, " " where index == 0 || index == characters.count - 1:
                result += "\\\(character)"
            case "\0":
                result += "\\00"
            default:
                result.append(character)
            }
        }
        return result
    }

    /// `attribute=value,parent` with the value escaped.
    public static func child(_ attribute: String, _ value: String, of parent: String) -> String {
        "\(attribute)=\(escape(value)),\(parent)"
    }

    /// The value of the first RDN, unescaped: "Support" for "cn=Support,ou=groups,dc=example".
    public static func firstValue(_ dn: String) -> String {
        guard let equals = dn.firstIndex(of: "=") else { return dn }
        var result: [UInt8] = []
        var characters = dn[dn.index(after: equals)...].makeIterator()
        while let character = characters.next() {
            if character == "," || character == "+" { break }
            if character == "\\", let next = characters.next() {
                if let high = next.hexDigitValue, let low = characters.next()?.hexDigitValue {
                    result.append(UInt8(high * 16 + low)) // \XX: one byte of UTF-8
                } else {
                    result += Array(String(next).utf8)
                }
                continue
            }
            result += Array(String(character).utf8)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Everything after the first RDN, or nil for a DN of one RDN: "ou=groups,dc=example" for
    /// "cn=Ops\, night,ou=groups,dc=example" (an escaped comma is part of the value).
    public static func parent(of dn: String) -> String? {
        var escaped = false
        for index in dn.indices {
            if escaped { escaped = false; continue }
            switch dn[index] {
            case "\\": escaped = true
            case ",": return String(dn[dn.index(after: index)...])
            default: continue
            }
        }
        return nil
    }

    /// Whether two DNs name the same entry, as far as case and spaces after commas go.
    public static func same(_ first: String, _ second: String) -> Bool {
        normalized(first) == normalized(second)
    }

    static func normalized(_ dn: String) -> String {
        dn.lowercased().replacingOccurrences(of: ", ", with: ",")
    }
}
