import CNCursesW
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures text in terminal columns, as the terminal will draw it: CJK and most emoji take
/// two columns, combining marks none. Uses the C library's `wcwidth` (the same table ncurses
/// and most terminals use), with an ASCII fast path.
public enum TextWidth {
    /// Columns one scalar takes; unprintable scalars count as one (they are sanitised into a
    /// one-column replacement before drawing).
    public static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        let width = Int(roster_wcwidth(value))
        return width < 0 ? 1 : width
    }

    public static func columns(of text: String) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += columns(of: scalar) }
        return total
    }

    /// The longest prefix of `text` that fits in `width` columns, ending with "…" when cut.
    /// Cuts only between grapheme clusters, so an accent is never separated from its letter and
    /// a wide character is never split.
    public static func truncate(_ text: String, toColumns width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if isASCII(text) {
            if text.utf8.count <= width { return text }
            return String(text.utf8.prefix(max(0, width - columns(of: ellipsis))))! + ellipsis
        }
        if columns(of: text) <= width { return text }
        let budget = width - columns(of: ellipsis)
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = character.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
            if used + characterWidth > budget { break }
            result.append(character)
            used += characterWidth
        }
        return result + ellipsis
    }

    /// `text` cut to `width` and padded with spaces to exactly `width` columns.
    public static func fit(_ text: String, toColumns width: Int) -> String {
        let cut = truncate(text, toColumns: width)
        let pad = width - columns(of: cut)
        return pad > 0 ? cut + String(repeating: " ", count: pad) : cut
    }

    /// Printable ASCII only (so one byte is one column).
    static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Makes `wcwidth` know Unicode: the app's locale must have a UTF-8 character type.
    /// Tries the environment's locale, then C.UTF-8; returns whether a UTF-8 locale is active.
    @discardableResult
    public static func activateUTF8Locale() -> Bool {
        setlocale(LC_ALL, "")
        if isUTF8Codeset() { return true }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            if isUTF8Codeset() { return true }
        }
        return false
    }

    private static func isUTF8Codeset() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }
}
