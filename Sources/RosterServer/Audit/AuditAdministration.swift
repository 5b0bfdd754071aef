import Foundation
import Logging
import RosterKit

/// `roster-server audit`: the audit log read from the database directly, one line per entry.
public enum AuditAdministration {
    /// Entries since `since`, oldest first, at most `limit`, as lines:
    /// `2026-11-25T09:00:00.000Z alice-roster update user u_12 (api, 127.0.0.1 roster/1.0, req 7) name: "Ana" → "Ana B."`
    public static func lines(
        database: String, since: Date?, resource: String?, resourceID: String?, token: String?, limit: Int, logger: Logger
    ) async throws -> [String] {
        let backend = try await StoreBackend.open(DatabaseLocation(database), queryBudget: QueryBudget.standard, logger: logger)
        do {
            var query = AuditQuery(since: since, resource: resource, resourceID: resourceID, token: token)
            query.limit = limit
            var entries: [AuditEntry] = []
            // Pages of the newest, until `limit` or the end; printed oldest first, as a log reads.
            while entries.count < limit {
                query.limit = min(AuditQuery.maximumLimit, limit - entries.count)
                let page = try await backend.auditLog.auditEntries(query)
                entries += page
                guard page.count == query.limit, let last = page.last else { break }
                query.before = last.seq
            }
            await backend.close()
            return entries.reversed().map(line)
        } catch {
            await backend.close()
            throw error
        }
    }

    static func line(_ entry: AuditEntry) -> String {
        let changes = entry.changes.map { change in
            "\(change.field): \(change.before.map(quoted) ?? "—") → \(change.after.map(quoted) ?? "—")"
        }.joined(separator: "; ")
        let source = [entry.via, entry.client, entry.requestID.isEmpty ? "" : "req \(entry.requestID)"].filter { !$0.isEmpty }.joined(separator: ", ")
        return "\(ISO8601Timestamp.format(entry.at)) \(entry.token) \(entry.action) \(entry.resource) \(entry.resourceID) (\(source))"
            + (changes.isEmpty ? "" : " \(changes)")
    }

    private static func quoted(_ text: String) -> String {
        text.hasPrefix("\"") || text.hasPrefix("{") || text.hasPrefix("[") ? text : "\"\(text)\""
    }

    /// "1h", "30m", "7d", "2w" → seconds (as token lifetimes).
    public static func duration(_ text: String) throws(TokenError) -> TimeInterval {
        do {
            return try TokenAdministration.lifetime(text)
        } catch {
            throw TokenError("\(text.prefix(40)) is not a duration like 30m, 12h, 90d or 2w.")
        }
    }
}
