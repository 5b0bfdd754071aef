import GRDB
import RosterKit

/// Every user's place in one sort's order of the whole list, read by one walk of the sort's
/// index (which holds the rowid, so no table row is read).
///
/// With it a deep page is its rows' `seq`s sliced out of `seqs`, then as many rowid lookups,
/// instead of an OFFSET that steps over page × per_page index rows; and a page of a trigram
/// search sorts its hits by `position(ofSeq:)` instead of reading every hit's table row for
/// its sort key (12,475 rows for `q=ivano` at a million users).
/// It describes one snapshot: `ListOrderCache` keeps it only for that write generation.
struct ListOrder: Sendable {
    /// The users' `seq`, in list order.
    let seqs: [Int64]
    /// `positions[seq]`: the user's index in `seqs`; -1 for a `seq` no user has.
    private let positions: [Int32]

    init(seqs: [Int64]) {
        self.seqs = seqs
        var positions = [Int32](repeating: -1, count: Int(seqs.max() ?? -1) + 1)
        for (position, seq) in seqs.enumerated() { positions[Int(seq)] = Int32(position) }
        self.positions = positions
    }

    /// The place of the user with this `seq`, or nil when no user has it.
    func position(ofSeq seq: Int64) -> Int? {
        guard seq >= 0, seq < positions.count else { return nil }
        let position = positions[Int(seq)]
        return position < 0 ? nil : Int(position)
    }

    /// Of `seqs` (in any order), the `limit` that come first in this order after skipping
    /// `offset` of them, in this order. A `seq` no user has is left out.
    func page(of seqs: [Int64], offset: Int, limit: Int) -> [Int64] {
        var placed: [(position: Int, seq: Int64)] = []
        placed.reserveCapacity(seqs.count)
        for seq in seqs {
            if let position = position(ofSeq: seq) { placed.append((position, seq)) }
        }
        placed.sort { $0.position < $1.position }
        guard offset < placed.count else { return [] }
        return placed[offset..<min(placed.count, offset + limit)].map(\.seq)
    }

    /// Walks the sort's index once, in the list's order.
    static func walk(_ sort: UserSort, in db: Database) throws -> ListOrder {
        let statement = try db.makeStatement(sql: "SELECT users.seq FROM users ORDER BY \(ListPlan.orderBy(sort))")
        var seqs: [Int64] = []
        let cursor = try Int64.fetchCursor(statement)
        while let seq = try cursor.next() { seqs.append(seq) }
        return ListOrder(seqs: seqs)
    }
}
