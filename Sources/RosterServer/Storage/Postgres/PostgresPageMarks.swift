import RosterKit
import NIOConcurrencyHelpers

/// Where pages of a list begin and end, for one write generation: the sort columns of the
/// first and last row of each page read, by list (sort and filters). A later page of the same
/// list walks the sort's index from the nearest mark (`PostgresListQuery.seekPage`) instead of
/// skipping every row from the nearer end: paging on from a deep page, or asking a page again,
/// walks a page's worth of rows, not page × per_page of them (and a short search's, not every
/// row before its first match again).
///
/// A mark holds only at the generation it was read at: the store reads the generation in the
/// page's own snapshot (every write transaction moves it, in whichever process), so a mark is
/// never used on a list another write has changed. SQLite's `ListOrder` answers the deep page
/// with the whole order in memory; on PostgreSQL a walk of a million index entries takes some
/// 400 ms, over the query budget, so the marks are made by the pages themselves, and the first
/// visit of a deep page at a generation still walks from the nearer end.
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

    /// A list whose pages walk the sort's index: the sort, a short search (folded), the filters.
    struct ListKey: Hashable, Sendable {
        var sort: UserSort
        var search: String?
        var role: Role?
        var status: Status?

        init(sort: UserSort, search: String? = nil, role: Role? = nil, status: Status? = nil) {
            self.sort = sort
            self.search = search
            self.role = role
            self.status = status
        }
    }

    /// Marks kept per list; past it, the oldest half are dropped.
    static let capacity = 512
    /// Lists kept; past it, one of the others is dropped.
    static let listCapacity = 64

    private struct Entry {
        var generation: UInt64
        var marks: [Int: Mark] = [:]
        var order: [Int] = []
    }

    private let entries = NIOLockedValueBox<[ListKey: Entry]>([:])

    /// The marks of `list` at `generation`, by position in the list (0-based).
    func marks(for list: ListKey, at generation: UInt64) -> [Int: Mark] {
        entries.withLockedValue { entries in
            guard let entry = entries[list], entry.generation == generation else { return [:] }
            return entry.marks
        }
    }

    /// Keeps `marks`, read in a snapshot at `generation`; an older generation's are dropped.
    func keep(_ marks: [Int: Mark], for list: ListKey, at generation: UInt64) {
        entries.withLockedValue { entries in
            var entry = entries[list] ?? Entry(generation: generation)
            // A newer generation's marks stay: generations only grow.
            if entry.generation > generation { return }
            if entry.generation < generation {
                entry = Entry(generation: generation)
                // Every other list's marks of an older generation are of no more use.
                entries = entries.filter { $0.value.generation >= generation }
            }
            for (position, mark) in marks where entry.marks.updateValue(mark, forKey: position) == nil {
                entry.order.append(position)
            }
            if entry.order.count > Self.capacity {
                let dropped = entry.order.prefix(entry.order.count / 2)
                for position in dropped { entry.marks[position] = nil }
                entry.order.removeFirst(dropped.count)
            }
            if entries[list] == nil, entries.count >= Self.listCapacity, let other = entries.keys.first {
                entries[other] = nil
            }
            entries[list] = entry
        }
    }

    /// How to read rows `offset ..< offset + rows` of a list of `total`: from the start, from
    /// the end, or from a mark, whichever skips the fewest of the list's rows (a mark when
    /// even: in a filtered list, rows before the first match are walked but not counted).
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
            if position <= offset, offset - position <= best.skip {
                best = Walk(mark: mark, backward: false, skip: offset - position)
            } else if position >= last, position - last <= best.skip {
                best = Walk(mark: mark, backward: true, skip: position - last)
            }
        }
        return best
    }
}
