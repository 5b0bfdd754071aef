import RosterKit
/// Search filters as RFC 4515 strings, every value escaped: a typed `*)(uid=*` is a search for
/// those characters, never a change of the filter.
public enum LDAPFilter {
    /// `value` with `*`, `(`, `)`, `\` and NUL written as `\XX`, and every byte outside
    /// printable ASCII as well, so no value can end or widen the filter it is put in.
    public static func escape(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"), 0, 0x80...0xFF:
                result += "\\" + hex(byte)
            default:
                result.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return result
    }

    public static func equals(_ attribute: String, _ value: String) -> String {
        "(\(attribute)=\(escape(value)))"
    }

    public static func contains(_ attribute: String, _ value: String) -> String {
        "(\(attribute)=*\(escape(value))*)"
    }

    public static func present(_ attribute: String) -> String {
        "(\(attribute)=*)"
    }

    /// All of `filters`; one filter stays as it is.
    public static func all(_ filters: [String]) -> String {
        filters.count == 1 ? filters[0] : "(&\(filters.joined()))"
    }

    public static func any(_ filters: [String]) -> String {
        filters.count == 1 ? filters[0] : "(|\(filters.joined()))"
    }

    public static func not(_ filter: String) -> String {
        "(!\(filter))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
