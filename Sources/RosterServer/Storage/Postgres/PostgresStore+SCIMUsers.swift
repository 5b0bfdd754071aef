import Foundation
import Logging
import PostgresNIO
import RosterKit

/// SCIM's reads of users on PostgreSQL; their writes are `RowStore`'s.
extension PostgresStore: SCIMStore {
    func scimUsers(_ query: SCIMListQuery) async throws -> (total: Int, records: [SCIMUserRecord]) {
        let plan = try SCIMListPlan(select: SCIMUserRecord.columns, columns: SCIMUserColumns(dialect: PostgresSCIMDialect()), query: query)
        return try await readOnly { connection in
            // Within the query budget, as on SQLite: a filter the indexes do not narrow may read every document.
            try await connection.query(
                PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(Self.milliseconds(self.queryBudget))"), logger: self.logger)
            let total = try await PostgresSCIMRows.count(plan, on: connection, logger: self.logger)
            guard plan.limit > 0, plan.offset < total else { return (total, []) }
            let page = PostgresSCIMDialect.query(plan.pageSQL, plan.pageArguments)
            return (total, try await PostgresSCIMRows.users(page, on: connection, logger: self.logger))
        }
    }

    func scimUser(id: String) async throws -> SCIMUserRecord {
        let record = try await readOnly { connection in
            try await PostgresSCIMRows.user(id: id, on: connection, logger: self.logger)
        }
        guard let record else { throw StoreError.notFound }
        return record
    }
}
