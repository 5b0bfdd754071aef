import Foundation
import GRDB
import RosterKit

/// SCIM's reads of groups; their writes are `RowStore`'s.
extension SQLiteStore {
    func scimGroups(_ query: SCIMListQuery, withMembers: Bool) async throws -> (total: Int, records: [SCIMGroupRecord]) {
        let plan = try SCIMListPlan(select: SCIMGroupRecord.columns, columns: SCIMGroupColumns(dialect: SQLiteSCIMDialect()), query: query)
        return try read { db in
            let total = try Int.fetchOne(
                db.cachedStatement(sql: plan.countSQL), arguments: SQLiteSCIMDialect.statementArguments(plan.countArguments)) ?? 0
            guard plan.limit > 0, plan.offset < total else { return (total, []) }
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: plan.pageSQL), arguments: SQLiteSCIMDialect.statementArguments(plan.pageArguments))
            return (total, try rows.map { row in
                let record = SCIMGroupRecord(row: row)
                return withMembers ? try record.withMembers(in: db) : record
            })
        }
    }

    func scimGroup(id: String) async throws -> SCIMGroupRecord {
        guard let record = try read({ db in try SCIMGroupRecord.fetch(id: id, in: db) }) else { throw StoreError.groupNotFound }
        return record
    }
}
