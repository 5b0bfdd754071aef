import Foundation
import PostgresNIO

extension PostgresStore: AuditLog {
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] {
        var conditions: [PostgresSQL] = ["true"]
        if let since = query.since { conditions.append("at >= \(Milliseconds.of(since))") }
        if let resource = query.resource { conditions.append("resource = \(resource)") }
        if let id = query.resourceID { conditions.append("resource_id = \(id)") }
        if let token = query.token { conditions.append("token = \(token)") }
        if let action = query.action { conditions.append("action = \(action)") }
        if let before = query.before { conditions.append("seq < \(before)") }
        let statement: PostgresSQL = """
            SELECT seq, at, token, client, request_id, via, resource, resource_id, action, changes FROM audit_log
            WHERE \(PostgresSQL.joined(conditions, separator: " AND ")) ORDER BY seq DESC LIMIT \(Int64(query.limit))
            """
        return try await database.withConnection { [logger] connection in
            let rows = try await connection.query(statement.query, logger: logger)
            var entries: [AuditEntry] = []
            for try await (seq, at, token, client, requestID, via, resource, resourceID, action, changes) in rows.decode(
                (Int64, Int64, String, String, String, String, String, String, String, String).self
            ) {
                entries.append(AuditEntry(
                    seq: seq, at: Milliseconds.date(at),
                    actor: AuditActor(token: token, client: client, requestID: requestID, via: via),
                    resource: resource, resourceID: resourceID, action: action, changes: AuditEntry.changes(fromJSON: changes)))
            }
            return entries
        }
    }

    func pruneAudit(before date: Date) async throws -> Int {
        try await database.withConnection { [logger] connection in
            let rows = try await connection.query(
                "WITH gone AS (DELETE FROM audit_log WHERE at < \(Milliseconds.of(date)) RETURNING 1) SELECT count(*) FROM gone",
                logger: logger)
            var count: Int64 = 0
            for try await value in rows.decode(Int64.self) { count = value }
            return Int(count)
        }
    }
}
