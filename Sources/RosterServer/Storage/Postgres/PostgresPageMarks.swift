import RosterKit
import Synchronization

/// Where pages of the unfiltered list begin and end, by sort, for one write generation: the
/// sort columns of the first and last row of each page read. A later page walks the sort's
/// index from the nearest mark (`PostgresListQuery.seekPage`) instead of skipping every row
/// from the nearer end of the list: paging on from a deep page, or asking it again, walks a
/// page's worth of rows, not page × per_page of them.
///
/// A mark holds only at the generation it was read at: the store reads the generation in the
/// page's own snapshot (every write transaction moves it, in whichever process), so a mark is
/// never used on a list another write has changed. SQLite's `ListOrder` answers the same
/// question with the whole order in memory; on PostgreSQL a walk of a million index entries
/// takes about 400 ms, longer than the query budget, so the marks are made by the pages
/// themselves.
final class PostgresPageMarks: Sendable {
    enum Primary: Sendable, Equatable {
        case text(String)
        case integer(Int64)
    }

    /// One row's sort columns: the primary column's value and the id that breaks ties (nil for
    /// the email sorts, whose key is unique).
    struct Mark: Sendable, Equatable {
        var primary: Primary
        var id: String?
    }

    /// Marks kept per sort; past it, the oldest half are dropped.
    static let capacity = 512

    private let entries = Mutex<[UserSort: (generation: UInt64, marks: [Int: Mark], order: [Int])]>([:])

    /// The marks of `sort` at `generation`, by position in the list (0-based).
    func marks(for sort: UserSort, at generation: UInt64) -> [Int: Mark] {
        entries.withLock { entries in
            guard let entry = entries[sort], entry.generation == generation else { return [:] }
            return entry.marks
        }
    }

    /// Keeps `marks`, read in a snapshot at `generation`; an older generation's are dropped.
    func keep(_ marks: [Int: Mark], for sort: UserSort, at generation: UInt64) {
        entries.withLock { entries in
            var entry = entries[sort] ?? (generation, [:], [])
            // A newer generation's marks stay: generations only grow.
            if entry.generation > generation { return }
            if entry.generation < generation { entry = (generation, [:], []) }
            for (position, mark) in marks where entry.marks.updateValue(mark, forKey: position) == nil {
                entry.order.append(position)
            }
            if entry.order.count > Self.capacity {
                let dropped = entry.order.prefix(entry.order.count / 2)
                for position in dropped { entry.marks[position] = nil }
                entry.order.removeFirst(dropped.count)
            }
            entries[sort] = entry
        }
    }

    /// How to read rows `offset ..< offset + rows` of a list of `total`: from the start, from
    /// the end, or from a mark, whichever skips the fewest rows.
    struct Walk: Equatable {
        var mark: Mark?
        var backward: Bool
        var skip: Int
    }

    static func walk(offset: Int, rows: Int, total: Int, marks: [Int: Mark]) -> Walk {
        let last = offset + rows - 1
        var best = Walk(mark: nil, backward: false, skip: offset)
        if total - 1 - last < best.skip { best = Walk(mark: nil, backward: true, skip: total - 1 - last) }
        for (position, mark) in marks {
            if position <= offset, offset - position < best.skip {
                best = Walk(mark: mark, backward: false, skip: offset - position)
            } else if position >= last, position - last < best.skip {
                best = Walk(mark: mark, backward: true, skip: position - last)
            }
        }
        return best
    }
}
