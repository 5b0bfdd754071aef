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
    /// Read as UTF-8 bytes: every character RFC 4514 gives a meaning is ASCII, so a byte of a
    /// longer character is never taken for one (a person's login and groups come from here,
    /// 50 times a page: by characters it was a tenth of the first screen's mapping, perf).
    public static func firstValue(_ dn: String) -> String {
        let bytes = Array(dn.utf8)
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return dn }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count - equals)
        var index = equals + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "+") { break }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                if index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                    result.append(high << 4 | low) // \XX: one byte of UTF-8
                    index += 3
                } else {
                    result.append(bytes[index + 1]) // \, \+ and the like: the character itself
                    index += 2
                }
                continue
            }
            result.append(byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
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
