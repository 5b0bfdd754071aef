import Foundation
import GRDB
import NIOConcurrencyHelpers
import RosterKit

/// How the journal writes. A pending entry is written on the caller's own thread, at once:
/// the request waits for it, and a hop to the journal's queue and back cost a bulk run more
/// than the write itself (measured: docs/benchmarks.md). Completions nobody waits for are kept
/// and go first in the next transaction, whichever it is (group commit: a bulk run's next
/// pending entries carry them); when none comes within `completionDelay`, the journal's queue
/// writes them on its own. Every other write and every read takes them first too, so the
/// journal is always read as written, in order.
final class JournalGroupCommit: Sendable {
    /// An answer to record on an entry already written.
    struct Completion: Sendable {
        var id: Int64
        var state: JournalEntry.State
        var after: String?
        var objectID: String?
        var etag: String?
        var detail: String?
    }

    /// How long a completion may wait for a transaction to share. A crash within it leaves
    /// the entry pending (so `unknown` at the next start: it may have landed, which it did).
    static let completionDelay: Duration = .milliseconds(20)

    private struct Waiting {
        var completions: [Completion] = []
        /// A write of its own is due for the waiting completions (it may find none left).
        var isScheduled = false
    }

    private let queue: DatabaseQueue
    private let waiting = NIOLockedValueBox(Waiting())

    init(queue: DatabaseQueue) {
        self.queue = queue
    }

    /// Writes `entry` as pending (after the completions waiting) and returns its id once
    /// committed. Blocks the calling thread for one short transaction, or while another
    /// roster on the same journal commits one (SQLite's lock, with the journal's busy timeout).
    func begin(_ entry: JournalEntry, before: String?, after: String?) throws -> Int64 {
        try queue.writeWithoutTransaction { db in
            try transaction(db) {
                try Self.insert(entry, before: before, after: after, db)
                return db.lastInsertedRowID
            }
        }
    }

    /// Records an answer with the next transaction; nobody waits for it.
    func complete(_ completion: Completion) {
        keep([completion])
    }

    /// Runs `body` in a transaction on the journal's queue, after the completions waiting.
    /// On the calling thread, as `begin`: GRDB's async write hops to its queue through
    /// libdispatch's worker pool, whose monitor then wakes the process every second for good
    /// (docs/design.md, "Nothing runs while idle").
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try writeHere(body)
    }

    private func writeHere<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in try transaction(db) { try body(db) } }
    }

    /// Writes the completions waiting, if any: before a read, so it sees them.
    func writeWaiting() async throws {
        guard waiting.withLockedValue({ !$0.completions.isEmpty }) else { return }
        try await write { _ in }
    }

    /// One transaction: the completions waiting, then `body`. If it fails, they wait again
    /// (unless this was their own write: then they are dropped, as a crash would drop them).
    private func transaction<T>(_ db: Database, requeue: Bool = true, _ body: () throws -> T) throws -> T {
        let completions = waiting.withLockedValue { waiting in
            defer { waiting.completions = [] }
            return waiting.completions
        }
        var result: T?
        do {
            try db.inTransaction {
                for completion in completions { try Self.update(completion, db) }
                result = try body()
                return .commit
            }
        } catch {
            if requeue, !completions.isEmpty { keep(completions, first: true) }
            throw error
        }
        return result!
    }

    /// Keeps completions for the next transaction, and makes sure one comes.
    private func keep(_ completions: [Completion], first: Bool = false) {
        let mustSchedule = waiting.withLockedValue { waiting in
            waiting.completions.insert(contentsOf: completions, at: first ? 0 : waiting.completions.endIndex)
            defer { waiting.isScheduled = true }
            return !waiting.isScheduled
        }
        guard mustSchedule else { return }
        _ = WorkerPool.shared.schedule(after: Self.completionDelay) {
            self.queue.writeWithoutTransaction { db in
                self.waiting.withLockedValue { $0.isScheduled = false }
                // One that cannot be written leaves its entry pending, as a crash would.
                _ = try? self.transaction(db, requeue: false) {}
            }
        }
    }

    private static func insert(_ entry: JournalEntry, before: String?, after: String?, _ db: Database) throws {
        try db.cachedStatement(literal: """
            INSERT INTO entry (run_id, time, connection, kind, object_id, label, action, before, after, etag, state, detail, undoes)
            VALUES (\(entry.runID), \(entry.time.timeIntervalSince1970), \(entry.connection), \(entry.kind.rawValue), \(entry.objectID),
                    \(entry.label), \(entry.action.rawValue), \(before), \(after), \(entry.etag), \(JournalEntry.State.pending.rawValue),
                    \(entry.detail), \(entry.undoes))
            """).execute()
    }

    private static func update(_ completion: Completion, _ db: Database) throws {
        try db.cachedStatement(literal: """
            UPDATE entry SET state = \(completion.state.rawValue), after = COALESCE(\(completion.after), after),
                object_id = COALESCE(\(completion.objectID), object_id), etag = COALESCE(\(completion.etag), etag),
                detail = COALESCE(\(completion.detail), detail)
            WHERE id = \(completion.id)
            """).execute()
    }
}
