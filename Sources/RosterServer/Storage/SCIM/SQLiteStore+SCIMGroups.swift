import Foundation
import GRDB
import RosterKit

/// SCIM's reads and writes of groups. Members are set as a whole (what a SCIM group says its
/// members are), as the difference from the current ones, in the write's transaction; an id
/// that is no user's refuses the whole write, so no membership ever dangles.
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

    func createSCIMGroup(_ write: SCIMGroupWrite, at now: Date) async throws -> SCIMGroupRecord {
        let milliseconds = Milliseconds.of(now)
        return try await self.write { db in
            let group = try Self.insertGroup(named: write.name, atMilliseconds: milliseconds, in: db)
            guard let (seq, _) = try GroupRow.fetchWithSeq(id: group.id, in: db) else { throw StoreError.groupNotFound }
            try db.cachedStatement(sql: "UPDATE groups SET scim = ? WHERE seq = ?")
                .execute(arguments: [SCIMDocumentColumn.text(write.document), seq])
            try Self.setMembers(write.memberIDs, ofGroupSeq: seq, at: milliseconds, in: db)
            guard let record = try SCIMGroupRecord.fetch(id: group.id, in: db) else { throw StoreError.groupNotFound }
            return record
        }
    }

    /// Reads the group, checks `If-Match`, and writes what `change` makes of it, in one transaction.
    func modifySCIMGroup(
        id: String, ifMatch: String?, at now: Date,
        change: @escaping @Sendable (SCIMGroupRecord) throws -> SCIMGroupWrite
    ) async throws -> SCIMGroupRecord {
        let milliseconds = Milliseconds.of(now)
        return try await write { db in
            guard let current = try SCIMGroupRecord.fetch(id: id, in: db) else { throw StoreError.groupNotFound }
            try ETag.check(ifMatch: ifMatch, version: current.version)
            let write = try change(current)
            let updatedAt = max(milliseconds, Milliseconds.of(current.group.createdAt))
            if write.name != current.group.name {
                do {
                    try GroupRow.rename(seq: current.seq, to: write.name, updatedAt: Milliseconds.date(updatedAt), in: db)
                } catch let error where GroupRow.uniqueViolation(error) == .name {
                    throw StoreError.groupNameTaken
                }
                try StoredUserJSON.refresh(userSeqs: Memberships.userSeqs(ofGroupSeq: current.seq, in: db), in: db)
            }
            try db.cachedStatement(sql: "UPDATE groups SET scim = ?, updated_at = max(updated_at, ?), revision = revision + 1 WHERE seq = ?")
                .execute(arguments: [SCIMDocumentColumn.text(write.document), updatedAt, current.seq])
            try Self.setMembers(write.memberIDs, ofGroupSeq: current.seq, at: milliseconds, in: db)
            guard let record = try SCIMGroupRecord.fetch(id: id, in: db) else { throw StoreError.groupNotFound }
            return record
        }
    }

    func deleteSCIMGroup(id: String, ifMatch: String?) async throws {
        try await write { db in
            guard let current = try SCIMGroupRecord.fetch(id: id, in: db) else { throw StoreError.groupNotFound }
            try ETag.check(ifMatch: ifMatch, version: current.version)
            let members = try Memberships.userSeqs(ofGroupSeq: current.seq, in: db)
            try db.cachedStatement(sql: "DELETE FROM groups WHERE seq = ?").execute(arguments: [current.seq])
            try StoredUserJSON.refresh(userSeqs: members, in: db)
        }
    }

    /// Makes the group's members exactly `ids` (repeats ignored).
    /// - Throws: `unknownUsers` naming every id no user has; nothing is changed then.
    private static func setMembers(_ ids: [String], ofGroupSeq groupSeq: Int64, at milliseconds: Int64, in db: Database) throws {
        var wanted = Set<Int64>()
        var unknown: [FieldError] = []
        for (index, id) in ids.enumerated() {
            if let seq = try UserRow.seq(id: id, in: db) {
                wanted.insert(seq)
            } else {
                unknown.append(FieldError(field: "members[\(index)].value", message: "No user has the id “\(id.prefix(100))”."))
            }
        }
        guard unknown.isEmpty else { throw StoreError.unknownUsers(unknown) }
        let current = Set(try Memberships.userSeqs(ofGroupSeq: groupSeq, in: db))
        var changed = Set<Int64>()
        for seq in wanted.subtracting(current) where try Memberships.add(userSeq: seq, toGroupSeq: groupSeq, in: db) {
            changed.insert(seq)
        }
        for seq in current.subtracting(wanted) where try Memberships.remove(userSeq: seq, fromGroupSeq: groupSeq, in: db) {
            changed.insert(seq)
        }
        if !changed.isEmpty {
            try GroupRow.touch(seq: groupSeq, at: Milliseconds.date(milliseconds), in: db)
            try StoredUserJSON.refresh(userSeqs: changed, in: db)
        }
    }
}
