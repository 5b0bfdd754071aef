import Foundation

/// Reading and pruning the audit log. Entries are written only by the write rules, in the
/// transaction of the change they record (`DirectoryRows.appendAudit`); nothing updates one
/// (the schema refuses it).
protocol AuditLog: Sendable {
    /// Newest first, at most `query.limit`.
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry]
    /// Deletes the entries from before `date`; answers how many.
    func pruneAudit(before date: Date) async throws -> Int
}

/// Which entries to read: every filter optional; `before` continues from the previous page's last `seq`.
struct AuditQuery: Sendable, Equatable {
    var since: Date?
    var resource: String?
    var resourceID: String?
    var token: String?
    var action: String?
    var before: Int64?
    var limit: Int = 50

    static let maximumLimit = 200
}

extension RowStore {
    /// Records a change made through the Roster API or SCIM in the write's own transaction: a
    /// write whose entry cannot be stored fails as a whole. A write outside any request (a
    /// tool or test on the store itself, seeding) has no author and is not an entry.
    static func audit(
        _ rows: Rows, at now: Date, resource: String, id: String, action: String, changes: [FieldChange]
    ) async throws {
        guard let actor = AuditActor.current else { return }
        try await rows.appendAudit(AuditEntry(at: now, actor: actor, resource: resource, resourceID: id, action: action, changes: changes))
    }
}
