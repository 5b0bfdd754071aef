import GRDB
@testable import RosterServer
import Testing

/// The bulk load's per-gram counts (`ShortGramCounts`: ASCII grams in a flat array, the rest in
/// a dictionary, counted in chunks and merged) against `ShortGrams.codes(of:)`, the grams the
/// row-by-row triggers count.
@Suite("Short gram counts: the bulk load's counts equal the triggers' grams")
struct ShortGramCountsTests {
    /// Keys that test the edges: ASCII next to other scripts and to scalars past U+FFFF, emoji,
    /// empty keys, spaces, a gram in both keys, repeats within a key. (No controls: names and
    /// emails never hold them, and SQLite's text cuts at U+0000.)
    static let users: [(role: String, status: String, keys: [String])] = [
        ("admin", "active", ["ada lovelace", "ada@example.com"]),
        ("member", "active", ["a b", "  "]),
        ("member", "active", ["𝔸𝔹 a", "a𝔸@example.com"]),
        ("member", "invited", ["søren škoda", "soren.skoda@example.org"]),
        ("viewer", "active", ["محمد حداد", "mohammed@example.com"]),
        ("admin", "active", ["👩‍💻 dev", "dev👍@example.com"]),
        ("member", "active", ["", ""]),
        ("member", "active", ["aaaa", "aa"]),
        ("custom-role", "custom-status", ["x", "yx"]),
        ("admin", "active", ["ivan ivanov", "ivan.ivanov@example.net"]),
    ]

    private func tableRows(_ counts: ShortGramCounts) throws -> [String: Int] {
        var configuration = Configuration()
        configuration.prepareDatabase { db in SQLiteDatabase.addFunctions(to: db) }
        let queue = try DatabaseQueue(configuration: configuration)
        try Schema.migrator.migrate(queue)
        return try queue.write { db in
            try counts.add(to: db)
            var rows: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT gram, role, status, n FROM users_short_count") {
                rows["\(row[0] as String)|\(row[1] as String)|\(row[2] as String)"] = row[3]
            }
            return rows
        }
    }

    @Test("counted in one piece and in merged chunks, every (gram, role, status) has the triggers' count")
    func sameAsCodes() throws {
        var expected: [String: Int] = [:]
        for user in Self.users {
            for code in ShortGrams.codes(of: user.keys) {
                expected["\(ShortGrams.text(of: code))|\(user.role)|\(user.status)", default: 0] += 1
            }
        }
        var whole = ShortGramCounts()
        for user in Self.users { whole.add(role: user.role, status: user.status, keys: user.keys) }
        // Chunks that meet the groups in different orders, merged into a count that has none yet.
        var merged = ShortGramCounts()
        for chunk in [Self.users[..<3], Self.users[3..<7], Self.users[7...]] {
            var counts = ShortGramCounts()
            for user in chunk.reversed() { counts.add(role: user.role, status: user.status, keys: user.keys) }
            merged.add(counts)
        }
        #expect(!expected.isEmpty)

        #expect(try tableRows(whole) == expected)
        #expect(try tableRows(merged) == expected)
    }
}
