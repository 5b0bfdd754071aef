import Foundation

/// The folded form of a name or email that the server sorts, compares and searches by.
///
/// Swift's `lowercased()` (what `InMemoryDirectory.ordering` sorts by), then NFC: Swift
/// compares strings by the scalars of their NFC form, and the UTF-8 bytes of an NFC string
/// compare (memcmp, SQLite's BINARY) in the same order as those scalars. So a SQL
/// `ORDER BY name_key` is the client's `<` on `name.lowercased()`, and two canonically
/// equivalent spellings of one email collide in the unique index as they would in Swift.
enum SortKey {
    static func of(_ text: String) -> String {
        let lowered = text.lowercased()
        return isNFC(byScalarRange: lowered) ? lowered : lowered.precomposedStringWithCanonicalMapping
    }

    /// Whether every scalar is below U+0300, where the combining marks begin: such a string is
    /// already NFC (no scalar below U+0300 changes under NFC, and every composition pairs a
    /// base with a later mark, Hangul jamo or vowel sign, all at U+0300 or above), so
    /// Foundation's normalization, 9% of a million-user seed, is skipped. In UTF-8 those are
    /// exactly the strings whose bytes are all below 0xCC, the lead byte of U+0300.
    static func isNFC(byScalarRange text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0xCC }
    }
}
