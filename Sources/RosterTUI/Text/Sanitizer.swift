/// Makes text from the network safe to draw: no byte of it may act on the terminal.
///
/// C0 controls become their Unicode "control pictures" (ESC → ␛, NUL → ␀), DEL becomes ␡,
/// C1 controls (0x80–0x9F, e.g. CSI 0x9B) and the bidirectional overrides and isolates become
/// U+FFFD. What remains is printable, so `ESC [ 2 J` in a name is shown as "␛[2J" and clears
/// nothing.
public enum Sanitizer {
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    public static func sanitize(_ text: String) -> String {
        // Fast path: most names are plain and need no copy.
        if !text.unicodeScalars.contains(where: needsReplacement) { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(replacement(for: scalar) ?? scalar)
        }
        return String(scalars)
    }

    static func needsReplacement(_ scalar: Unicode.Scalar) -> Bool {
        replacement(for: scalar) != nil
    }

    static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x00...0x1F:
            return Unicode.Scalar(0x2400 + scalar.value)  // ␀ … ␟
        case 0x7F:
            return "\u{2421}"  // ␡
        case 0x80...0x9F,
             0x061C,  // Arabic letter mark
             0x200E, 0x200F,  // LRM, RLM
             0x202A...0x202E,  // LRE, RLE, PDF, LRO, RLO
             0x2066...0x2069,  // LRI, RLI, FSI, PDI
             0x2028, 0x2029:  // line and paragraph separators
            return replacement
        default:
            return nil
        }
    }
}
