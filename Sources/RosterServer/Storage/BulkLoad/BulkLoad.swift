import Foundation
import GRDB
import RosterKit

/// Loads many users into an empty directory fast: `roster-server --seed 1000000`.
///
/// Keeping every index and trigger while inserting a million rows makes each insert update
/// seven B-trees in random order and the trigram index row by row (105 s for a million). Here
/// the `users` table's secondary indexes and its insert triggers are dropped inside the
/// transaction, the rows go in (chunks made ready on other threads, `BulkLoadChunk`, and bound
/// in place, `BulkLoadStatement`), and then the indexes are built again from the very SQL the schema created them with (read back from
/// `sqlite_master`, so the schema stays the one source), the trigram index is rebuilt in one
/// pass and the per-(role, status) and per-gram counts are summed once. All in one transaction: a
/// reader sees no users, then all of them, indexed. A database that does not exist yet is
/// loaded with no journal at all (`SeededFile`).
enum BulkLoad {
    /// The insert triggers whose work is redone in bulk afterwards, and `user_emails_insert`,
    /// which has none to do: bulk-loaded users have no SCIM document (`UserRow.insertSQL`).
    private static let deferredTriggers = ["users_search_insert", "users_count_insert", "users_short_insert", "user_emails_insert"]

    /// FTS5's term buffer during the trigram rebuild: 256 MiB (only what is used is allocated).
    private static let rebuildHashSize = 256 << 20
    /// FTS5's own default (FTS5_DEFAULT_HASHSIZE).
    private static let defaultHashSize = 1 << 20

    /// Inserts the users and groups of `directory`, which must all be new (an id, email or
    /// group name already taken fails the whole load).
    static func insert(_ directory: BulkDirectory, in db: Database) throws {
        let users = directory.users
        let deferred = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE tbl_name = 'users' AND sql IS NOT NULL
              AND (type = 'index' OR (type = 'trigger' AND name IN ('\(deferredTriggers.joined(separator: "','"))')))
            """).map { (type: $0["type"] as String, name: $0["name"] as String, sql: $0["sql"] as String) }
        for item in deferred {
            try db.execute(sql: "DROP \(item.type == "index" ? "INDEX" : "TRIGGER") \(item.name)")
        }

        // A page cache big enough for the index builds and the trigram rebuild (the index
        // sorts size their memory by it too), for this load only: the default 2,000 pages
        // thrash at a million rows. 1 GiB at most; only what is used is allocated.
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -1048576")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }

        let statement = try BulkLoadStatement(db)
        var chunks = BulkLoadPipeline(users, make: BulkLoadRows.make)
        var userSeqs: [Int64] = []
        userSeqs.reserveCapacity(users.count)
        while let rows = chunks.take() {
            try statement.insert(rows, seqs: &userSeqs)
        }

        for item in deferred {
            try db.execute(sql: item.sql)
        }
        // FTS5 flushes its in-memory term hash to a new segment each time it reaches
        // `hashsize` (1 MB by default), and merges the segments as it goes: a million users'
        // trigrams made hundreds of them. With room for the whole rebuild, it writes few and
        // merges little (16 s to 11 s at a million). The default is restored for the
        // row-by-row writes that follow (the setting is kept in the index's config table).
        try db.execute(sql: "INSERT INTO users_search(users_search, rank) VALUES ('hashsize', \(Self.rebuildHashSize))")
        try db.execute(sql: "INSERT INTO users_search(users_search) VALUES ('rebuild')")
        try db.execute(sql: "INSERT INTO users_search(users_search, rank) VALUES ('hashsize', \(Self.defaultHashSize))")
        try db.execute(sql: "DELETE FROM users_search_config WHERE k = 'hashsize'")
        try chunks.counts.add(to: db)
        try BulkGroupLoad.insert(directory.groups, userSeqs: userSeqs, in: db)
    }
}
