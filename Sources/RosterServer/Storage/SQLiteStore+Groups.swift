import Foundation
import GRDB
import RosterKit

/// Reads of groups, on the same database and write generation as the users; their writes are
/// `RowStore`'s.
extension SQLiteStore {
    func groups(_ query: GroupQuery) async throws -> Page<Group> {
        let plan = GroupListPlan(query)
        return try read { db in
            let total = try Int.fetchOne(db.cachedStatement(sql: plan.countSQL), arguments: plan.countArguments) ?? 0
            let items = try Row.fetchAll(db.cachedStatement(sql: plan.pageSQL), arguments: plan.pageArguments)
                .map(GroupRow.group(from:))
            return Page(items: items, page: query.page, perPage: query.perPage, total: total)
        }
    }

    func group(id: String) async throws -> Group {
        guard let group = try read({ db in try GroupRow.fetchWithSeq(id: id, in: db)?.group }) else {
            throw StoreError.groupNotFound
        }
        return group
    }
}
