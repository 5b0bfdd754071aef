import Foundation

/// How values are folded before they are compared: as loosely as the loosest directory
/// compares them, so two values any of them would call the same match. SCIM's `userName` and
/// `emails` are `caseExact: false` (RFC 7643); LDAP's `uid` and `cn` use `caseIgnoreMatch`,
/// whose string preparation (RFC 4518) is NFKC, case folding and collapsed spaces; Active
/// Directory and roster-server compare emails case-insensitively. So: NFKC, then full Unicode
/// case folding (ß and ss are one, as in caseIgnoreMatch), then NFKC again (folding can
/// un-normalise), with the ends trimmed and inner runs of spaces made one. docs/review.md says more. In RosterKit
/// because it needs Foundation's normalisation, which the view models do not import.
public enum ReviewFold {
    public static func key(_ value: String) -> String {
        if let ascii = asciiKey(value) { return ascii }
        let normalised = value.precomposedStringWithCompatibilityMapping
        let folded = normalised.folding(options: [.caseInsensitive], locale: nil).precomposedStringWithCompatibilityMapping
        return collapsingSpaces(folded)
    }

    /// Most keys are ASCII: lowercased byte by byte, and the very string given back (no copy)
    /// when it is already folded. Nil for anything not ASCII.
    static func asciiKey(_ value: String) -> String? {
        var changed = false
        var previousSpace = true // a leading space is dropped
        for byte in value.utf8 {
            guard byte < 0x80 else { return nil }
            if byte >= 0x41 && byte <= 0x5A { changed = true }
            if byte == 0x20 || byte == 0x09 {
                if previousSpace || byte == 0x09 { changed = true }
                previousSpace = true
            } else {
                previousSpace = false
            }
        }
        if previousSpace, !value.isEmpty { changed = true } // a trailing space
        guard changed else { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            let isSpace = byte == 0x20 || byte == 0x09
            if isSpace {
                if bytes.isEmpty || bytes.last == 0x20 { continue }
                bytes.append(0x20)
            } else {
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
        }
        if bytes.last == 0x20 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Ends trimmed, inner runs of white space made one space (RFC 4518's insignificant space).
    static func collapsingSpaces(_ value: String) -> String {
        value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Names are compared as people read them: canonically equivalent (Swift's `==` on
    /// `String`), with the ends trimmed and inner spaces collapsed; a change of case is a change.
    public static func sameName(_ a: String, _ b: String) -> Bool {
        a == b || collapsingSpaces(a) == collapsingSpaces(b)
    }
}
