import Foundation
import GRDB

extension SQLiteStore: AuditLog {
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] {
        let (sql, arguments) = Self.auditSQL(query)
        return try await longRead { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.auditEntry)
        }
    }

    func pruneAudit(before date: Date) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM audit_log WHERE at < ?", arguments: [Milliseconds.of(date)])
            return db.changesCount
        }
    }

    /// The filters as `?` placeholders, in the order of `arguments`.
    static func auditSQL(_ query: AuditQuery) -> (String, StatementArguments) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        func add(_ condition: String, _ value: (any DatabaseValueConvertible)?) {
            guard let value else { return }
            conditions.append(condition)
            arguments += [value]
        }
        add("at >= ?", query.since.map(Milliseconds.of))
        add("resource = ?", query.resource)
        add("resource_id = ?", query.resourceID)
        add("token = ?", query.token)
        add("action = ?", query.action)
        add("seq < ?", query.before)
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments += [query.limit]
        return ("SELECT * FROM audit_log \(filter) ORDER BY seq DESC LIMIT ?", arguments)
    }

    private static func auditEntry(_ row: Row) -> AuditEntry {
        AuditEntry(
            seq: row["seq"], at: Milliseconds.date(row["at"]),
            actor: AuditActor(token: row["token"], client: row["client"], requestID: row["request_id"], via: row["via"]),
            resource: row["resource"], resourceID: row["resource_id"], action: row["action"],
            changes: AuditEntry.changes(fromJSON: row["changes"]))
    }
}
