import GRDB

/// The one- and two-character substrings of a user's folded name and email keys, for the
/// totals of searches too short for the trigram index.
///
/// A search of one or two characters matches a user when the pattern is a substring of either
/// key, which is exactly when it is one of these grams. `users_short_count` keeps, per gram and
/// (role, status), how many users have it (triggers call `short_grams` on every write), so the
/// total of `q=a` is a sum over at most nine rows instead of `instr` over every user.
/// Characters are Unicode scalars, as SQLite's `instr` and `substr` count them.
enum ShortGrams {
    /// A gram as a number: one scalar, or two with a marker bit above both (scalars fit in 21 bits).
    typealias Code = UInt64
    private static let pairMarker: Code = 1 << 42

    /// The gram of two scalars, `first` then `second`.
    static func pair(_ first: Code, _ second: Code) -> Code {
        pairMarker | first << 21 | second
    }

    /// The distinct grams of the keys, sorted.
    static func codes(of keys: [String]) -> [Code] {
        var codes: [Code] = []
        for key in keys {
            var previous: Code?
            for scalar in key.unicodeScalars {
                let current = Code(scalar.value)
                codes.append(current)
                if let previous { codes.append(pair(previous, current)) }
                previous = current
            }
        }
        codes.sort()
        var unique: [Code] = []
        unique.reserveCapacity(codes.count)
        for code in codes where code != unique.last { unique.append(code) }
        return unique
    }

    static func text(of code: Code) -> String {
        let scalars: [UInt32] = code & pairMarker == 0
            ? [UInt32(code)]
            : [UInt32((code >> 21) & 0x1F_FFFF), UInt32(code & 0x1F_FFFF)]
        var text = String.UnicodeScalarView()
        for value in scalars { if let scalar = Unicode.Scalar(value) { text.append(scalar) } }
        return String(text)
    }

    /// `short_grams(name_key, email_key)`: the distinct grams as a JSON array of strings, for
    /// the triggers to walk with `json_each` (a trigger can have no recursive query of its own).
    static func sqlFunction() -> DatabaseFunction {
        DatabaseFunction("short_grams", argumentCount: 2, pure: true) { values in
            let keys = values.compactMap { String.fromDatabaseValue($0) }
            var json = "["
            for (index, code) in codes(of: keys).enumerated() {
                if index > 0 { json += "," }
                appendJSONString(text(of: code), to: &json)
            }
            return json + "]"
        }
    }

    private static func appendJSONString(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case _ where scalar.value < 0x20: json += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
