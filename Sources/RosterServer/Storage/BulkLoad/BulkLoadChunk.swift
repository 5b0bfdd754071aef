import Dispatch
import Foundation
import RosterKit
import NIOConcurrencyHelpers

/// One chunk of users being made ready on a global queue (folded keys, JSON, per-gram counts,
/// in whatever form the backend's load takes: `BulkLoadRows` for SQLite, COPY text for
/// PostgreSQL) while the chunks before it are loaded.
final class BulkLoadChunk<Rows: Sendable>: Sendable {
    private let done = DispatchGroup()
    private let rows = NIOLockedValueBox<Rows?>(nil)

    /// Starts making `users` ready with `make`, and adds their grams to `counts`.
    init(_ users: ArraySlice<User>, counting counts: BulkGramCounts,
         make: @escaping @Sendable (ArraySlice<User>, inout ShortGramCounts) -> Rows) {
        done.enter()
        DispatchQueue.global().async { [self] in
            var chunkCounts = ShortGramCounts()
            let made = make(users, &chunkCounts)
            counts.add(chunkCounts)
            rows.withLockedValue { $0 = made }
            done.leave()
        }
    }

    /// Waits for the rows, blocking the thread: for SQLite's load, which runs on a thread of its own.
    func take() -> Rows {
        done.wait()
        return rows.withLockedValue { $0! }
    }

    /// Waits for the rows without blocking a thread: for PostgreSQL's load, on the cooperative pool.
    func value() async -> Rows {
        await withCheckedContinuation { continuation in
            done.notify(queue: .global()) { continuation.resume(returning: self.rows.withLockedValue { $0! }) }
        }
    }
}

/// A bulk load's users in chunks, made ready on other threads, `chunksAhead` at a time, and
/// handed over in order. Making a chunk ready takes longer than loading it, so several are
/// made at once while the oldest is loaded.
struct BulkLoadPipeline<Rows: Sendable> {
    /// Every chunk's gram counts, added up as the chunks are made.
    let counts = BulkGramCounts()
    private let users: [User]
    private let make: @Sendable (ArraySlice<User>, inout ShortGramCounts) -> Rows
    private var pending: [BulkLoadChunk<Rows>] = []
    private var next: Int

    init(_ users: [User], make: @escaping @Sendable (ArraySlice<User>, inout ShortGramCounts) -> Rows) {
        self.users = users
        self.make = make
        next = users.startIndex
        for _ in 0..<BulkLoadChunking.chunksAhead { startChunk() }
    }

    /// The next chunk's rows (waiting for them on this thread), or nil after the last.
    mutating func take() -> Rows? {
        guard !pending.isEmpty else { return nil }
        let chunk = pending.removeFirst()
        startChunk()
        return chunk.take()
    }

    /// The next chunk's rows, or nil after the last.
    mutating func value() async -> Rows? {
        guard !pending.isEmpty else { return nil }
        let chunk = pending.removeFirst()
        startChunk()
        return await chunk.value()
    }

    private mutating func startChunk() {
        guard next < users.endIndex else { return }
        let end = min(users.endIndex, next + BulkLoadChunking.chunkSize)
        pending.append(BulkLoadChunk(users[next..<end], counting: counts, make: make))
        next = end
    }
}

/// How a bulk load cuts its users.
enum BulkLoadChunking {
    /// Users per chunk.
    static let chunkSize = 4096
    /// Chunks being made ready at once: one per core, and at least two.
    static let chunksAhead = max(2, ProcessInfo.processInfo.activeProcessorCount)
}
