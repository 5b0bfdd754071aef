import Foundation
import GRDB

/// The change journal: every write Roster makes, in a SQLite file (through GRDB) in the state
/// folder, private to its owner like every file there.
///
/// `begin` is awaited before a request is sent (the pending entry is committed first: WAL, so a
/// SIGKILL after it returns cannot lose it); `complete` is not awaited — completions wait for
/// the next transaction (`JournalGroupCommit`), always behind the entries they complete, and a
/// crash before one lands leaves the entry pending, which is what it should say then.
public final class ChangeJournal: Sendable {
    /// Where the journal lives, for the log and `roster journal`.
    public let path: String
    private let queue: DatabaseQueue
    private let groupCommit: JournalGroupCommit

    /// Opens (or makes) the journal at `path`.
    public init(path: String) throws {
        self.path = path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        var configuration = Configuration()
        configuration.label = "journal"
        // Two rosters may share the journal (two terminals): a write waits for the other's.
        configuration.busyMode = .timeout(5)
        // WAL with synchronous NORMAL: a commit survives the process being killed (the OS has
        // it); only a power cut may lose the last ones. One fsync per write would cost the run.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Appended to, and read a screen at a time: SQLite's default 2 MB page cache only
            // kept a bulk run's pages in the client's memory (make bench: after a bulk run).
            try db.execute(sql: "PRAGMA cache_size = -256")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        try Self.migrator.migrate(queue)
        groupCommit = JournalGroupCommit(queue: queue)
    }

    /// A read on the calling thread, for the reason `JournalGroupCommit.write` gives.
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.read(body)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE run (
                    id TEXT PRIMARY KEY, started_at DOUBLE NOT NULL, ended_at DOUBLE, connection TEXT NOT NULL,
                    what TEXT NOT NULL, count INTEGER NOT NULL, state TEXT NOT NULL, undoes TEXT,
                    process_id INTEGER NOT NULL, plan TEXT);
                CREATE TABLE entry (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT, time DOUBLE NOT NULL, connection TEXT NOT NULL,
                    kind TEXT NOT NULL, object_id TEXT NOT NULL, label TEXT NOT NULL, action TEXT NOT NULL,
                    before TEXT, after TEXT, etag TEXT, state TEXT NOT NULL, detail TEXT, undoes INTEGER);
                CREATE INDEX entry_run ON entry(run_id, id);
                CREATE INDEX entry_time ON entry(time);
                CREATE INDEX run_time ON run(started_at);
                """)
        }
        return migrator
    }

    // MARK: Writing

    /// Writes `entry` as pending and returns its id. Awaited before the request is sent.
    public func begin(_ entry: JournalEntry) async throws -> Int64 {
        try groupCommit.begin(entry, before: try entry.before?.encoded(), after: try entry.after?.encoded())
    }

    /// Records the answer: the state, and what the server said the object now is (a new id, a
    /// version). Not awaited; see the type's comment.
    public func complete(
        _ id: Int64, state: JournalEntry.State, after: JournalValue? = nil, objectID: String? = nil, etag: String? = nil, detail: String? = nil
    ) {
        groupCommit.complete(.init(id: id, state: state, after: try? after?.encoded(), objectID: objectID, etag: etag, detail: detail))
    }

    /// Waits until every completion handed in so far is written (tests; the end of a run).
    public func flush() async throws {
        try await groupCommit.write { _ in }
    }

    public func startRun(_ run: JournalRun) async throws {
        let plan = try run.plan.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try await groupCommit.write { db in
            try db.execute(sql: """
                INSERT INTO run (id, started_at, ended_at, connection, what, count, state, undoes, process_id, plan)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [run.id, run.startedAt.timeIntervalSince1970, run.endedAt?.timeIntervalSince1970, run.connection,
                                 run.what, run.count, run.state.rawValue, run.undoes, run.processID, plan])
        }
    }

    /// Ends a run (after its completions, which are ahead of it on the queue).
    public func finishRun(_ id: String, state: JournalRun.State, count: Int? = nil) async throws {
        try await groupCommit.write { db in
            try db.execute(sql: "UPDATE run SET state = ?, ended_at = ?, count = COALESCE(?, count) WHERE id = ?",
                           arguments: [state.rawValue, Date().timeIntervalSince1970, count, id])
        }
    }

    // MARK: Reading

    public func runs(limit: Int = 200) async throws -> [JournalRun] {
        try await groupCommit.writeWaiting()
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM run ORDER BY started_at DESC LIMIT ?", arguments: [limit]).map(Self.run)
        }
    }

    public func run(id: String) async throws -> JournalRun? {
        try await groupCommit.writeWaiting()
        return try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM run WHERE id = ?", arguments: [id]).map(Self.run)
        }
    }

    /// The newest entries first; `outsideRuns` only those made one at a time.
    public func entries(limit: Int = 200, outsideRuns: Bool = false) async throws -> [JournalEntry] {
        try await groupCommit.writeWaiting()
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM entry \(outsideRuns ? "WHERE run_id IS NULL" : "") ORDER BY id DESC LIMIT ?",
                             arguments: [limit]).map(Self.entry)
        }
    }

    /// A run's entries, in the order they were written.
    public func entries(ofRun id: String) async throws -> [JournalEntry] {
        try await groupCommit.writeWaiting()
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM entry WHERE run_id = ? ORDER BY id", arguments: [id]).map(Self.entry)
        }
    }

    public func entry(id: Int64) async throws -> JournalEntry? {
        try await groupCommit.writeWaiting()
        return try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]).map(Self.entry)
        }
    }

    /// Entries written at or after `date`, oldest first (`roster journal --since`).
    public func entries(since date: Date) async throws -> [JournalEntry] {
        try await groupCommit.writeWaiting()
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM entry WHERE time >= ? ORDER BY id", arguments: [date.timeIntervalSince1970])
                .map(Self.entry)
        }
    }

    public func runs(since date: Date) async throws -> [JournalRun] {
        try await groupCommit.writeWaiting()
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM run WHERE started_at >= ? ORDER BY started_at", arguments: [date.timeIntervalSince1970])
                .map(Self.run)
        }
    }

    /// At start: runs still `running` whose process is gone become `interrupted`, and their
    /// pending entries `unknown` (each may have landed). Returns the runs found so now.
    public func markInterrupted(isRunning: @escaping @Sendable (Int32) -> Bool = ChangeJournal.processIsRunning) async throws -> [JournalRun] {
        try await groupCommit.write { db in
            let running = try Row.fetchAll(db, sql: "SELECT * FROM run WHERE state = ?", arguments: [JournalRun.State.running.rawValue])
                .map(Self.run)
            var found: [JournalRun] = []
            for var run in running where !isRunning(run.processID) {
                try db.execute(sql: "UPDATE run SET state = ? WHERE id = ?", arguments: [JournalRun.State.interrupted.rawValue, run.id])
                try db.execute(sql: "UPDATE entry SET state = ? WHERE run_id = ? AND state = ?",
                               arguments: [JournalEntry.State.unknown.rawValue, run.id, JournalEntry.State.pending.rawValue])
                run.state = .interrupted
                found.append(run)
            }
            // A single write (no run) left pending by a crash may have landed too. It cannot be
            // told from one in flight in another roster on this journal but by age: no request
            // outlives ten minutes (the client's deadlines are far shorter).
            try db.execute(sql: """
                UPDATE entry SET state = ? WHERE state = ? AND run_id IS NULL AND time < ?
                """, arguments: [JournalEntry.State.unknown.rawValue, JournalEntry.State.pending.rawValue, Date().timeIntervalSince1970 - 600])
            return found
        }
    }

    /// Whether a process with this id exists (signal 0 checks without sending anything).
    public static func processIsRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// Which runs were interrupted and not yet dealt with (finished, undone or dismissed).
    public func interruptedRuns() async throws -> [JournalRun] {
        try await groupCommit.writeWaiting()
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM run WHERE state = ? ORDER BY started_at", arguments: [JournalRun.State.interrupted.rawValue])
                .map(Self.run)
        }
    }

    /// An interrupted run dealt with: it keeps its entries and is no longer offered at start.
    public func settleInterrupted(_ id: String, as state: JournalRun.State) async throws {
        try await groupCommit.write { db in
            try db.execute(sql: "UPDATE run SET state = ? WHERE id = ? AND state = ?",
                           arguments: [state.rawValue, id, JournalRun.State.interrupted.rawValue])
        }
    }

    // MARK: Retention

    /// Deletes entries older than `before` and the oldest beyond `maximumEntries`, and runs
    /// left with no entries that ended before the cut. Returns how many entries went.
    @discardableResult
    public func prune(before date: Date, maximumEntries: Int) async throws -> Int {
        try await groupCommit.write { db in
            try db.execute(sql: "DELETE FROM entry WHERE time < ?", arguments: [date.timeIntervalSince1970])
            var removed = db.changesCount
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") ?? 0
            if count > maximumEntries {
                try db.execute(sql: "DELETE FROM entry WHERE id IN (SELECT id FROM entry ORDER BY id LIMIT ?)", arguments: [count - maximumEntries])
                removed += db.changesCount
            }
            try db.execute(sql: """
                DELETE FROM run WHERE state != ? AND started_at < ? AND NOT EXISTS (SELECT 1 FROM entry WHERE entry.run_id = run.id)
                """, arguments: [JournalRun.State.running.rawValue, date.timeIntervalSince1970])
            try db.execute(sql: """
                DELETE FROM run WHERE state != ? AND NOT EXISTS (SELECT 1 FROM entry WHERE entry.run_id = run.id)
                  AND EXISTS (SELECT 1 FROM entry) AND started_at < (SELECT MIN(time) FROM entry)
                """, arguments: [JournalRun.State.running.rawValue])
            return removed
        }
    }

    public func entryCount() async throws -> Int {
        try await groupCommit.writeWaiting()
        return try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") ?? 0 }
    }

    // MARK: Rows

    private static func entry(_ row: Row) throws -> JournalEntry {
        func value(_ column: String) throws -> JournalValue? {
            try (row[column] as String?).map(JournalValue.decoded)
        }
        return JournalEntry(
            id: row["id"], runID: row["run_id"], time: Date(timeIntervalSince1970: row["time"]), connection: row["connection"],
            kind: JournalEntry.Kind(rawValue: row["kind"]) ?? .user, objectID: row["object_id"], label: row["label"],
            action: JournalEntry.Action(rawValue: row["action"]) ?? .updateUser, before: try value("before"), after: try value("after"),
            etag: row["etag"], state: JournalEntry.State(rawValue: row["state"]) ?? .unknown, detail: row["detail"], undoes: row["undoes"])
    }

    private static func run(_ row: Row) throws -> JournalRun {
        let plan = try (row["plan"] as String?).map { try JSONDecoder().decode(JournalPlan.self, from: Data($0.utf8)) }
        return JournalRun(
            id: row["id"], startedAt: Date(timeIntervalSince1970: row["started_at"]),
            endedAt: (row["ended_at"] as Double?).map(Date.init(timeIntervalSince1970:)), connection: row["connection"],
            what: row["what"], count: row["count"], state: JournalRun.State(rawValue: row["state"]) ?? .interrupted,
            undoes: row["undoes"], processID: row["process_id"], plan: plan)
    }
}
