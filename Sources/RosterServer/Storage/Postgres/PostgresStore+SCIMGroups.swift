import Foundation
import Logging
import PostgresNIO
import RosterKit

/// SCIM's reads of groups on PostgreSQL; their writes are `RowStore`'s.
extension PostgresStore {
    func scimGroups(_ query: SCIMListQuery, withMembers: Bool) async throws -> (total: Int, records: [SCIMGroupRecord]) {
        let plan = try SCIMListPlan(select: SCIMGroupRecord.columns, columns: SCIMGroupColumns(dialect: PostgresSCIMDialect()), query: query)
        return try await readOnly { connection in
            let total = try await PostgresSCIMRows.count(plan, on: connection, logger: self.logger)
            guard plan.limit > 0, plan.offset < total else { return (total, []) }
            let page = PostgresSCIMDialect.query(plan.pageSQL, plan.pageArguments)
            return (total, try await PostgresSCIMRows.groups(page, withMembers: withMembers, on: connection, logger: self.logger))
        }
    }

    func scimGroup(id: String) async throws -> SCIMGroupRecord {
        let record = try await readOnly { connection in
            try await PostgresSCIMRows.group(id: id, on: connection, logger: self.logger)
        }
        guard let record else { throw StoreError.groupNotFound }
        return record
    }
}
