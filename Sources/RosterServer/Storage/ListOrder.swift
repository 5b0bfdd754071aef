import GRDB
import GRDBSQLite
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
    /// The users' search keys in the same order, for one- and two-character searches; nil for
    /// the email sorts, whose (unique) index does not hold `name_key`.
    let keys: OrderedSearchKeys?

    init(seqs: [Int64], keys: OrderedSearchKeys? = nil) {
        self.seqs = seqs
        self.keys = keys
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

    /// The `seq`s of a page of the whole list: a slice of the order.
    func slice(offset: Int, limit: Int) -> [Int64] {
        offset < seqs.count ? Array(seqs[offset..<min(seqs.count, offset + limit)]) : []
    }

    /// The `seq`s of a page of the users whose keys contain `search`, of `total` such users:
    /// counted from the end when the page is past the middle (as `ListPlan.readsFromEnd`).
    /// Nil when this order has no keys.
    func searchPage(_ search: String, offset: Int, limit: Int, total: Int) -> [Int64]? {
        guard let keys else { return nil }
        let positions: [Int]
        if offset < total && offset > total - offset - limit {
            let rows = min(limit, total - offset)
            positions = keys.matchesFromEnd(of: search, skippingFromEnd: total - offset - rows, limit: rows).reversed()
        } else {
            positions = keys.matches(of: search, offset: offset, limit: limit)
        }
        return positions.map { seqs[$0] }
    }

    /// Whether the walk of `sort` also reads the search keys. The name sorts' index holds
    /// `name_key` and the row's `email_key` is read from the table (a million lookups, about
    /// 2 s, in the background): indexes carrying `email_key` too made seeding a million users
    /// take 85 s instead of 40.
    static func readsKeys(_ sort: UserSort) -> Bool {
        sort != .email && sort != .emailDescending
    }

    /// Walks the sort's index once, in the list's order.
    static func walk(_ sort: UserSort, in db: Database) throws -> ListOrder {
        guard readsKeys(sort) else {
            let statement = try db.makeStatement(sql: "SELECT users.seq FROM users ORDER BY \(ListPlan.orderBy(sort))")
            var seqs: [Int64] = []
            let cursor = try Int64.fetchCursor(statement)
            while let seq = try cursor.next() { seqs.append(seq) }
            return ListOrder(seqs: seqs)
        }
        let statement = try db.makeStatement(
            sql: "SELECT users.seq, users.name_key, users.email_key FROM users ORDER BY \(ListPlan.orderBy(sort))")
        let expected = try Int.fetchOne(db, sql: "SELECT coalesce(sum(n), 0) FROM users_count") ?? 0
        var seqs: [Int64] = []
        seqs.reserveCapacity(expected)
        var keys = OrderedSearchKeys.Builder(expectedUsers: expected)
        let rows = try Row.fetchCursor(statement)
        while try rows.next() != nil {
            seqs.append(sqlite3_column_int64(statement.sqliteStatement, 0))
            keys.append(nameKey: StoredText.bytes(of: statement, column: 1), emailKey: StoredText.bytes(of: statement, column: 2))
        }
        return ListOrder(seqs: seqs, keys: keys.finish())
    }
}
