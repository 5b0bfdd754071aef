import NIOCore
import RosterKit
import NIOConcurrencyHelpers

/// Recent list answers, as the bytes that were sent, for the database's current write generation.
///
/// A list call is a read transaction, two statements and a page of bytes: under wrk, several
/// times the fixed-body floor's cost per request, even with the reads kept on the calling thread. Clients ask for the same few pages over and over (the first page,
/// the page after it, a search being typed), so those are answered from here.
///
/// Staleness is ruled out by the store's `generation()`, which moves after any commit to the
/// database by any process: an answer is stored under the generation noted before its query
/// ran, and only while that generation is still current; the first lookup or store under a
/// newer generation empties the cache. So several servers on one database never serve a list
/// another one's write has outdated. Bounded by entries and bytes, least
/// recently used out first.
final class ListResponseCache: Sendable {
    static let defaultMaximumEntries = 256
    static let defaultMaximumBytes = 8 << 20

    private struct Entry {
        var body: ByteBuffer
        var lastUse: UInt64
    }

    private struct State {
        var generation: UInt64 = 0
        var entries: [UserListQuery: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0

        /// Forgets everything stored under an older generation.
        mutating func move(to newer: UInt64) {
            generation = newer
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
    }

    private let state = NIOLockedValueBox(State())
    let maximumEntries: Int
    let maximumBytes: Int

    init(maximumEntries: Int = defaultMaximumEntries, maximumBytes: Int = defaultMaximumBytes) {
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    /// Two queries with the same answer share an entry: searches compare folded, as the store does.
    static func key(_ query: UserListQuery) -> UserListQuery {
        var key = query
        key.base.search = query.base.search.map(SortKey.of)
        return key
    }

    /// The answer to `key`: kept, or loaded and then kept if no write committed while it loaded.
    /// - Parameter generation: the store's `generation()`.
    func answer(
        _ key: UserListQuery, generation current: () async throws -> UInt64, load: () async throws -> ByteBuffer
    ) async rethrows -> ByteBuffer {
        // Noted before the query runs: a write committing during it moves the generation, and
        // then what was read may be outdated, so it is sent (it was current when read) but not kept.
        let generation = try await current()
        if let kept = lookup(key, generation: generation) { return kept }
        let body = try await load()
        if try await current() == generation {
            store(body, for: key, generation: generation)
        }
        return body
    }

    func lookup(_ key: UserListQuery, generation: UInt64) -> ByteBuffer? {
        state.withLockedValue { state in
            if generation > state.generation { state.move(to: generation) }
            guard generation == state.generation, var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.body
        }
    }

    /// Keeps `body` as the answer to `key` under `generation`, unless a newer one is current.
    func store(_ body: ByteBuffer, for key: UserListQuery, generation: UInt64) {
        let size = body.readableBytes
        guard size <= maximumBytes else { return }
        state.withLockedValue { state in
            if generation > state.generation { state.move(to: generation) }
            guard generation == state.generation else { return }
            state.clock += 1
            if let replaced = state.entries.updateValue(Entry(body: body, lastUse: state.clock), forKey: key) {
                state.bytes -= replaced.body.readableBytes
            }
            state.bytes += size
            // A linear search for the oldest: it follows a miss, which just ran a query that
            // costs far more than a few hundred comparisons.
            while state.entries.count > maximumEntries || state.bytes > maximumBytes,
                  let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries.removeValue(forKey: oldest.key)
                state.bytes -= oldest.value.body.readableBytes
            }
        }
    }

    var count: Int { state.withLockedValue { $0.entries.count } }
}
