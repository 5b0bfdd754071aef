import Dispatch
import GRDB
import RosterKit
import Synchronization

/// Loads many users into an empty directory fast: `roster-server --seed 1000000`.
///
/// Keeping every index and trigger while inserting a million rows makes each insert update
/// seven B-trees in random order and the trigram index row by row (105 s for a million). Here
/// the `users` table's secondary indexes and its insert triggers are dropped inside the
/// transaction, the rows go in (in batches of one prepared statement), and then the indexes
/// are built again from the very SQL the schema created them with (read back from
/// `sqlite_master`, so the schema stays the one source), the trigram index is rebuilt in one
/// pass and the per-(role, status) and per-gram counts are summed once. All in one transaction: a reader
/// sees no users, then all of them, indexed.
enum BulkLoad {
    /// The insert triggers whose work is redone in bulk afterwards.
    private static let deferredTriggers = ["users_search_insert", "users_count_insert", "users_short_insert"]

    /// Users prepared per hand-over between the threads.
    static let chunkSize = 4096

    /// FTS5's term buffer during the trigram rebuild: 256 MiB (only what is used is allocated).
    private static let rebuildHashSize = 256 << 20
    /// FTS5's own default (FTS5_DEFAULT_HASHSIZE).
    private static let defaultHashSize = 1 << 20

    /// Inserts `users`, which must all be new (an id or email already taken fails the whole load).
    static func insert(_ users: [User], in db: Database) throws {
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

        let statement = try db.makeStatement(sql: UserRow.insertSQL)
        let shortCounts = SharedGramCounts()
        // Each chunk's keys, JSON and gram counts are made on another thread while the one
        // before it is inserted here: half the load's time is that Swift work, which then
        // runs beside SQLite's instead of before it.
        func chunk(from start: Int) -> PreparedChunk? {
            start < users.endIndex
                ? PreparedChunk.start(users[start..<min(users.endIndex, start + Self.chunkSize)], counting: shortCounts)
                : nil
        }
        var start = users.startIndex
        var next = chunk(from: start)
        while let prepared = next {
            let rows = prepared.take()
            start += rows.count
            next = chunk(from: start)
            for row in rows {
                try statement.execute(arguments: UserRow.insertArguments(row.user, nameKey: row.nameKey, emailKey: row.emailKey, json: row.json))
            }
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
        try shortCounts.add(to: db)
    }
}

/// A user's values that take time to make: the folded keys and the stored JSON.
private struct PreparedRow: Sendable {
    var user: User
    var nameKey: String
    var emailKey: String
    var json: String
}

/// One chunk of users being prepared on a global queue; `take()` waits for its rows.
private final class PreparedChunk: Sendable {
    private let done = DispatchGroup()
    private let rows = Mutex<[PreparedRow]>([])

    /// Starts preparing `users`, and adds their grams to `counts` (chunks are prepared one
    /// after another, so the lock is never contended).
    static func start(_ users: ArraySlice<User>, counting counts: SharedGramCounts) -> PreparedChunk {
        let chunk = PreparedChunk()
        chunk.done.enter()
        DispatchQueue.global().async {
            let prepared = users.map { user in
                let nameKey = SortKey.of(user.name), emailKey = SortKey.of(user.email)
                return PreparedRow(user: user, nameKey: nameKey, emailKey: emailKey, json: UserJSON.objectText(user))
            }
            counts.add(prepared)
            chunk.rows.withLock { $0 = prepared }
            chunk.done.leave()
        }
        return chunk
    }

    func take() -> [PreparedRow] {
        done.wait()
        return rows.withLock { $0 }
    }
}

/// The load's `ShortGramCounts`, added to by the chunks' threads in turn.
private final class SharedGramCounts: Sendable {
    private let counts = Mutex(ShortGramCounts())

    func add(_ rows: [PreparedRow]) {
        counts.withLock { counts in
            for row in rows {
                counts.add(role: row.user.role.rawValue, status: row.user.status.rawValue, keys: [row.nameKey, row.emailKey])
            }
        }
    }

    func add(to db: Database) throws {
        try counts.withLock { try $0.add(to: db) }
    }
}

/// `users_short_count`'s and `users_count`'s rows for a bulk load, counted in memory: a million
/// users have some 90 million (user, gram) pairs, far too many to group in SQL within the
/// seeding budget, and grouping the users by (role, status) in SQL reads every row again.
private struct ShortGramCounts {
    private struct Key: Hashable {
        var code: ShortGrams.Code
        /// Index of the (role, status) in `groups`.
        var group: Int
    }

    private var groups: [(role: String, status: String)] = []
    /// Users per entry of `groups`.
    private var users: [Int] = []
    private var counts: [Key: Int] = [:]

    /// Counts one user with these folded keys.
    mutating func add(role: String, status: String, keys: [String]) {
        let group = groupIndex(role: role, status: status)
        users[group] += 1
        for code in ShortGrams.codes(of: keys) {
            counts[Key(code: code, group: group), default: 0] += 1
        }
    }

    /// A few (role, status) pairs (nine for the known values), so a linear search.
    private mutating func groupIndex(role: String, status: String) -> Int {
        if let index = groups.firstIndex(where: { $0.role == role && $0.status == status }) { return index }
        groups.append((role, status))
        users.append(0)
        return groups.count - 1
    }

    /// Adds the counts to the tables' (the load's users are new, so their counts add up).
    func add(to db: Database) throws {
        let users = try db.makeStatement(sql: """
            INSERT INTO users_count(role, status, n) VALUES (?, ?, ?)
                ON CONFLICT(role, status) DO UPDATE SET n = n + excluded.n
            """)
        for (group, count) in zip(groups, self.users) {
            try users.execute(arguments: [group.role, group.status, count])
        }
        let statement = try db.makeStatement(sql: """
            INSERT INTO users_short_count(gram, role, status, n) VALUES (?, ?, ?, ?)
                ON CONFLICT(gram, role, status) DO UPDATE SET n = n + excluded.n
            """)
        for (key, count) in counts {
            let group = groups[key.group]
            try statement.execute(arguments: [ShortGrams.text(of: key.code), group.role, group.status, count])
        }
    }
}
