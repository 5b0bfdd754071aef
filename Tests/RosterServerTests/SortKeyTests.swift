import Foundation
@testable import RosterServer
import Testing

/// `SortKey.of` skips Foundation's NFC for strings whose scalars are all below U+0300; the
/// keys must be exactly what the normalization gives.
@Suite("Sort keys: the shortcut past NFC gives the normalized key")
struct SortKeyTests {
    private static func normalized(_ text: String) -> String {
        text.lowercased().precomposedStringWithCanonicalMapping
    }

    @Test("every scalar below U+0300, alone and before a combining mark and another scalar")
    func everyScalarBelowCombiningMarks() {
        for value in UInt32(1)..<0x300 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in [String(scalar), String(scalar) + "\u{301}", String(scalar) + "a\u{2FF}", "İ" + String(scalar)] {
                #expect(Array(SortKey.of(text).utf8) == Array(Self.normalized(text).utf8), "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test("the demo names and emails, and decomposed spellings")
    func demoUsers() {
        for user in DemoData.users(count: 3000) {
            #expect(Array(SortKey.of(user.name).utf8) == Array(Self.normalized(user.name).utf8))
            #expect(Array(SortKey.of(user.email).utf8) == Array(Self.normalized(user.email).utf8))
        }
        for text in ["Jose\u{301}", "E\u{300}", "ÅNGSTRÖM", "한국어", "\u{1100}\u{1161}", "ǅemal"] {
            #expect(Array(SortKey.of(text).utf8) == Array(Self.normalized(text).utf8))
        }
    }
}
