import RosterKit
import NIOConcurrencyHelpers

/// The `ListOrder` of each sort, each for the write generation it was walked at: valid only
/// while `SQLiteStore.generation()` has not moved (any commit, by any process, moves it).
///
/// A walk reads the whole index (some 120 ms at a million users), so it is made only when a
/// second list that can use it (a deep page, a trigram search) asks at one generation: a
/// server under steady writes then reads its lists as before instead of walking the index
/// for every one. The walk runs in the background (`SQLiteStore.walkInBackground`): no list waits for it.
final class ListOrderCache: Sendable {
    private enum State {
        /// The first list at this generation only asks.
        case asked
        /// One read is walking the index; the others read as before meanwhile.
        case walking
        case walked(ListOrder)
        /// The walk ran out of time; not tried again at this generation.
        case failed
    }

    private let entries = NIOLockedValueBox<[UserSort: (generation: UInt64, state: State)]>([:])

    /// What a list of `sort` at `generation` should do.
    enum Advice {
        case use(ListOrder)
        /// Start a walk of the index, then `store` the result (or `walkFailed`); read as before meanwhile.
        case walk
        /// Read the list as before.
        case readWithout
    }

    func advice(for sort: UserSort, at generation: UInt64) -> Advice {
        entries.withLockedValue { entries in
            guard let entry = entries[sort], entry.generation >= generation else {
                entries[sort] = (generation, .asked)
                Self.dropOlder(than: generation, in: &entries)
                return .readWithout
            }
            // A caller that noted an older generation than the entry's reads as before.
            guard entry.generation == generation else { return .readWithout }
            switch entry.state {
            case .asked:
                entries[sort] = (generation, .walking)
                return .walk
            case .walking, .failed: return .readWithout
            case .walked(let order): return .use(order)
            }
        }
    }

    /// Keeps `order`, walked in a snapshot known to be at `generation`.
    func store(_ order: ListOrder, for sort: UserSort, at generation: UInt64) {
        update(sort, generation, .walked(order))
    }

    /// The walk advised at `generation` did not finish, or its snapshot was not that generation's.
    func walkFailed(for sort: UserSort, at generation: UInt64) {
        update(sort, generation, .failed)
    }

    private func update(_ sort: UserSort, _ generation: UInt64, _ state: State) {
        entries.withLockedValue { entries in
            // A newer generation's entry stays: generations only grow.
            if let entry = entries[sort], entry.generation > generation { return }
            entries[sort] = (generation, state)
            Self.dropOlder(than: generation, in: &entries)
        }
    }

    /// Orders from generations older than `generation` can never be used again. One with its
    /// keys is some 60 MB at a million users, so they go as soon as a newer generation is
    /// seen rather than when their sort is next asked for, which may be never.
    private static func dropOlder(than generation: UInt64, in entries: inout [UserSort: (generation: UInt64, state: State)]) {
        entries = entries.filter { $0.value.generation >= generation }
    }

    /// Whether the order of `sort` at `generation` is kept (for tests).
    func keeps(_ sort: UserSort, at generation: UInt64) -> Bool {
        entries.withLockedValue { entries in
            guard let entry = entries[sort], entry.generation == generation, case .walked = entry.state else { return false }
            return true
        }
    }

    /// The sorts whose order is kept now (for tests).
    var keptSorts: Set<UserSort> {
        entries.withLockedValue { entries in
            Set(entries.compactMap { key, entry in
                if case .walked = entry.state { return key } else { return nil }
            })
        }
    }
}
