import Foundation

/// The folded form of a name or email that the server sorts, compares and searches by.
///
/// Swift's `lowercased()` (what `InMemoryUserRepository.ordering` sorts by), then NFC: Swift
/// compares strings by the scalars of their NFC form, and the UTF-8 bytes of an NFC string
/// compare (memcmp, SQLite's BINARY) in the same order as those scalars. So a SQL
/// `ORDER BY name_key` is the client's `<` on `name.lowercased()`, and two canonically
/// equivalent spellings of one email collide in the unique index as they would in Swift.
enum SortKey {
    static func of(_ text: String) -> String {
        text.lowercased().precomposedStringWithCanonicalMapping
    }
}
