import Foundation
import GRDB
import RosterKit

/// SCIM's reads of users, on the same rows and write generation as the Roster API; its writes
/// are `RowStore`'s.
extension SQLiteStore {
    /// A page of users and `totalResults`, within the query budget (a filter the indexes do not
    /// narrow may read every document): `queryTooSlow` past it.
    func scimUsers(_ query: SCIMListQuery) async throws -> (total: Int, records: [SCIMUserRecord]) {
        let plan = try SCIMListPlan(select: SCIMUserRecord.columns, columns: SCIMUserColumns(dialect: SQLiteSCIMDialect()), query: query)
        return try await longRead { db in
            let total = try Int.fetchOne(
                db.cachedStatement(sql: plan.countSQL), arguments: SQLiteSCIMDialect.statementArguments(plan.countArguments)) ?? 0
            guard plan.limit > 0, plan.offset < total else { return (total, []) }
            let rows = try Self.pageRows(plan, matches: total, in: db)
            return (total, try rows.map { try SCIMUserRecord(row: $0).withGroups(in: db) })
        }
    }

    /// The page's rows: by walking the table in `seq` order when the counts say that finds
    /// them sooner (up to a bounded `seq`, else through the index after all), or through the
    /// filter's index (`SCIMListPlan.filterIndexPageSQL`).
    private static func pageRows(_ plan: SCIMListPlan, matches: Int, in db: Database) throws -> [Row] {
        let wanted = min(plan.limit, matches - plan.offset)
        if plan.walksTable, let span = try SeqSpan.of(users: db),
           let fraction = walkedFraction(matches: matches, users: span.count, through: plan.offset + plan.limit),
           let walk = plan.tableOrderPage(upToSeq: span.seq(atFraction: fraction)) {
            let rows = try Row.fetchAll(db.cachedStatement(sql: walk.sql), arguments: SQLiteSCIMDialect.statementArguments(walk.arguments))
            if rows.count == wanted { return rows }
        }
        return try Row.fetchAll(db.cachedStatement(sql: plan.filterIndexPageSQL), arguments: SQLiteSCIMDialect.statementArguments(plan.pageArguments))
    }

    /// How much of the table, in `seq` order, a walk for a filtered page may read; nil when the
    /// filter's index is the better way. Through the index, every match is sorted:
    /// `userName sw "a" and active eq true` at a million users gathered 94,242 matches to
    /// keep 50 (16 ms), where the table walk meets the 50 within some 530 rows
    /// (under 1 ms). Spread evenly, the page is met within `through / matches` of the table,
    /// each row read costing about three index entries; the walk may read four times that
    /// before it gives up (matches bunched late in `seq` order, say `meta.created gt` a
    /// recent date) and the index is taken after all.
    static func walkedFraction(matches: Int, users: Int, through: Int) -> Double? {
        guard matches > 0, users > 0 else { return nil }
        let expected = Double(through) / Double(matches)
        guard expected * Double(users) * 3 < Double(matches) else { return nil }
        return min(1, expected * 4)
    }

    /// The users' `seq` from first to last, and how many users there are.
    private struct SeqSpan {
        var first: Int64
        var last: Int64
        var count: Int

        static func of(users db: Database) throws -> SeqSpan? {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT (SELECT min(seq) FROM users), (SELECT max(seq) FROM users), (SELECT coalesce(sum(n), 0) FROM users_count)
                """)), let first: Int64 = row[0], let last: Int64 = row[1] else { return nil }
            return SeqSpan(first: first, last: last, count: row[2])
        }

        /// The `seq` that far through the span.
        func seq(atFraction fraction: Double) -> Int64 {
            first + Int64((Double(last - first + 1) * fraction).rounded(.up))
        }
    }

    func scimUser(id: String) async throws -> SCIMUserRecord {
        guard let record = try read({ db in try SCIMUserRecord.fetch(id: id, in: db) }) else { throw StoreError.notFound }
        return record
    }
}
