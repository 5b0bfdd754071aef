import Foundation
import PostgresNIO
import RosterKit

/// Reads of groups on PostgreSQL; their writes are `RowStore`'s.
extension PostgresStore {
    func groups(_ query: GroupQuery) async throws -> Page<Group> {
        let (product, overflow) = (query.page - 1).multipliedReportingOverflow(by: query.perPage)
        let offset = overflow ? Int(Int32.max) : max(0, product)
        let search = query.search.map(SortKey.of) ?? ""
        let order = GroupListPlan.orderBy(query.sort)
        let condition: PostgresSQL
        if search.isEmpty {
            condition = "true"
        } else if search.unicodeScalars.contains(where: UserValidation.isForbiddenInText) {
            condition = "false" // no name holds a control character
        } else {
            condition = "strpos(groups.name_key, \(search)) > 0"
        }
        let counted: PostgresSQL = "SELECT count(*) FROM groups WHERE \(condition)"
        let page: PostgresSQL = """
            SELECT \(unescaped: PostgresGroupRows.columns), groups.seq FROM groups WHERE \(condition)
            ORDER BY \(unescaped: order) LIMIT \(query.perPage) OFFSET \(offset)
            """
        return try await readOnly { connection in
            var total = 0
            for try await count in try await connection.query(counted.query, logger: self.logger).decode(Int64.self) { total = Int(count) }
            let items = try await PostgresGroupRows.fetchAll(page.query, on: connection, logger: self.logger).map(\.group)
            return Page(items: items, page: query.page, perPage: query.perPage, total: total)
        }
    }

    func group(id: String) async throws -> Group {
        let found = try await database.withConnection { connection in
            try await PostgresGroupRows.fetchWithSeq(id: id, on: connection, logger: self.logger)?.group
        }
        guard let found else { throw StoreError.groupNotFound }
        return found
    }
}
