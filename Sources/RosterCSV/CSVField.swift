/// One field of an RFC 4180 record, made safe for spreadsheets.
///
/// SwiftCSV 0.10.0 has a serializer, but it quotes only fields holding the delimiter or a
/// quote (a field with a line break comes out unquoted, splitting the record), ends lines
/// with LF rather than RFC 4180's CRLF, and works on a whole table in memory; an export
/// streams page by page. So records are written here, in a few lines.
public enum CSVField {
    /// The text of `value` as one field: control characters dropped, a formula made inert,
    /// quoted when it holds `,` `"` CR or LF (or was made inert), quotes doubled.
    public static func encode(_ value: String) -> String {
        let clean = strippingControls(value)
        let inert = FormulaGuard.neutralised(clean)
        let needsQuotes = inert != clean || inert.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return inert }
        return "\"" + inert.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A record: the fields joined by commas and ended by CRLF.
    public static func record(_ values: [String]) -> String {
        values.map(encode).joined(separator: ",") + "\r\n"
    }

    /// C0 and C1 controls and DEL, except tab, CR and LF (which quoting carries): text from
    /// the network is untrusted, and an escape sequence in a name would run in the terminal
    /// of whoever `cat`s the file.
    static func strippingControls(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: isDropped) else { return value }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: value.unicodeScalars.filter { !isDropped($0) })
        return String(scalars)
    }

    private static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}

/// CSV injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`,
/// `+`, `-` or `@` as a formula, and tab or CR can hide such a start. Such a cell gets a
/// leading `'`, which spreadsheets show as text and do not evaluate, and is quoted.
/// The apostrophe stays visible in other tools: a name is never meant to start with these.
public enum FormulaGuard {
    static let triggers: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    public static func isDangerous(_ value: String) -> Bool {
        value.unicodeScalars.first.map(triggers.contains) ?? false
    }

    public static func neutralised(_ value: String) -> String {
        isDangerous(value) ? "'" + value : value
    }

    /// The inverse, for a file read back in: `'=x` is `=x` again, so an export imported as it
    /// is changes nothing. A `'` before anything else is the person's own and stays.
    public static func restored(_ value: String) -> String {
        guard value.hasPrefix("'"), isDangerous(String(value.dropFirst())) else { return value }
        return String(value.dropFirst())
    }
}
