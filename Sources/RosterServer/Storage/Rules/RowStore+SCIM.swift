import Foundation
import RosterKit

/// SCIM's writes, on the same rows, transactions and write generation as the Roster API (a
/// SCIM write outdates the API's cached lists like any other). A modify or delete reads the
/// resource, checks `If-Match` and writes, in one transaction: it never applies to a version
/// it did not see. A group's members are set as a whole (what a SCIM group says its members
/// are), as the difference from the current ones; an id that is no user's refuses the whole
/// write, so no membership ever dangles.
extension RowStore {
    func createSCIMUser(_ write: SCIMUserWrite, at now: Date) async throws -> SCIMUserRecord {
        let milliseconds = Milliseconds.of(now)
        return try await writeRows { rows in
            let user = try await FreshID.insert(atMilliseconds: milliseconds) { id in
                User(
                    id: id, name: write.name, email: write.email, role: write.role, status: write.status,
                    createdAt: Milliseconds.date(milliseconds), updatedAt: Milliseconds.date(milliseconds))
            } insert: { user in
                try await rows.insert(user, scim: write)
            }
            let created = try await Self.scimUser(id: user.id, rows: rows)
            try await Self.audit(rows, at: now, resource: "user", id: user.id, action: "create", changes: FieldChange.diff(nil, created))
            return created
        }
    }

    func modifySCIMUser(
        id: String, ifMatch: String?, at now: Date,
        change: @escaping @Sendable (SCIMUserRecord) throws -> SCIMUserWrite
    ) async throws -> SCIMUserRecord {
        let milliseconds = Milliseconds.of(now)
        return try await writeMatching(ifMatch, read: { try await Self.scimUser(id: id, rows: $0) }) { rows, current in
            let write = try change(current)
            try await rows.update(write.applied(to: current.user, atMilliseconds: milliseconds), seq: current.seq, scim: write)
            let changed = try await Self.scimUser(id: id, rows: rows)
            try await Self.audit(rows, at: now, resource: "user", id: id, action: "update", changes: FieldChange.diff(current, changed))
            return changed
        }
    }

    func deleteSCIMUser(id: String, ifMatch: String?, at now: Date) async throws {
        try await writeMatching(ifMatch, read: { try await Self.scimUser(id: id, rows: $0) }) { rows, current in
            try await rows.deleteUser(seq: current.seq)
            try await Self.audit(rows, at: now, resource: "user", id: id, action: "delete", changes: FieldChange.diff(current, nil))
        }
    }

    func createSCIMGroup(_ write: SCIMGroupWrite, at now: Date) async throws -> SCIMGroupRecord {
        let milliseconds = Milliseconds.of(now)
        return try await writeRows { rows in
            let (seq, group) = try await Self.insertGroup(named: write.name, atMilliseconds: milliseconds, rows: rows)
            try await rows.setDocument(write.document, ofGroupSeq: seq, updatedAt: nil)
            let members = try await Self.setMembers(write.memberIDs, ofGroupSeq: seq, at: now, rows: rows)
            let changes = FieldChange.diff(nil, write.document) + FieldChange.members(added: members.added, removed: members.removed)
            if !changes.isEmpty {
                try await Self.audit(rows, at: now, resource: "group", id: group.id, action: "update", changes: changes)
            }
            try await Self.auditMemberships(rows, at: now, group: write.name, added: members.added, removed: members.removed)
            return try await Self.scimGroup(id: group.id, rows: rows)
        }
    }

    func modifySCIMGroup(
        id: String, ifMatch: String?, at now: Date,
        change: @escaping @Sendable (SCIMGroupRecord) throws -> SCIMGroupWrite
    ) async throws -> SCIMGroupRecord {
        let milliseconds = Milliseconds.of(now)
        return try await writeMatching(ifMatch, read: { try await Self.scimGroup(id: id, rows: $0) }) { rows, current in
            let write = try change(current)
            try await Self.rename(groupSeq: current.seq, current.group, to: write.name, at: milliseconds, rows: rows)
            let updatedAt = Milliseconds.date(max(milliseconds, Milliseconds.of(current.group.createdAt)))
            try await rows.setDocument(write.document, ofGroupSeq: current.seq, updatedAt: updatedAt)
            let members = try await Self.setMembers(write.memberIDs, ofGroupSeq: current.seq, at: now, rows: rows)
            try await Self.audit(rows, at: now, resource: "group", id: id, action: "update",
                                 changes: FieldChange.diff(name: current.group.name, write.name) + FieldChange.diff(current.document, write.document)
                                     + FieldChange.members(added: members.added, removed: members.removed))
            try await Self.auditMemberships(rows, at: now, group: write.name, added: members.added, removed: members.removed)
            return try await Self.scimGroup(id: id, rows: rows)
        }
    }

    func deleteSCIMGroup(id: String, ifMatch: String?, at now: Date) async throws {
        try await writeMatching(ifMatch, read: { try await Self.scimGroup(id: id, rows: $0) }) { rows, current in
            try await Self.deleteGroup(seq: current.seq, rows: rows)
            try await Self.audit(rows, at: now, resource: "group", id: id, action: "delete", changes: FieldChange.diff(name: current.group.name, nil))
        }
    }

    /// One write transaction that reads the resource, refuses to go on unless `If-Match`
    /// names its current version (`versionMismatch`), and runs `body` on it: a PUT, PATCH or
    /// DELETE never applies to a version it did not see.
    private func writeMatching<Record: SCIMVersioned, T: Sendable>(
        _ ifMatch: String?, read: @escaping @Sendable (Rows) async throws -> Record,
        _ body: @escaping @Sendable (Rows, Record) async throws -> T
    ) async throws -> T {
        try await writeRows { rows in
            let current = try await read(rows)
            try ETag.check(ifMatch: ifMatch, version: current.version)
            return try await body(rows, current)
        }
    }

    /// - Throws: `notFound`.
    private static func scimUser(id: String, rows: Rows) async throws -> SCIMUserRecord {
        guard let record = try await rows.scimUser(id: id) else { throw StoreError.notFound }
        return record
    }

    /// - Throws: `groupNotFound`.
    private static func scimGroup(id: String, rows: Rows) async throws -> SCIMGroupRecord {
        guard let record = try await rows.scimGroup(id: id) else { throw StoreError.groupNotFound }
        return record
    }

    /// Makes the group's members exactly `ids` (repeats ignored); answers the change, for the audit.
    /// - Throws: `unknownUsers` naming every id no user has; nothing is changed then.
    private static func setMembers(_ ids: [String], ofGroupSeq groupSeq: Int64, at now: Date, rows: Rows) async throws -> (added: [String], removed: [String]) {
        let known = try await rows.userSeqs(ofIDs: ids)
        var unknown: [FieldError] = []
        let wanted = Set(seqs(of: ids, in: known, unknown: &unknown) { "members[\($0)].value" })
        guard unknown.isEmpty else { throw StoreError.unknownUsers(unknown) }
        let current = Set(try await rows.memberSeqs(ofGroupSeq: groupSeq))
        let added = try await rows.add(userSeqs: wanted.subtracting(current).sorted(), toGroupSeq: groupSeq)
        let removed = try await rows.remove(userSeqs: current.subtracting(wanted).sorted(), fromGroupSeq: groupSeq)
        try await membersChanged(added + removed, groupSeq: groupSeq, at: now, rows: rows)
        // Removed members were not named in `ids`: their ids are read back (they still exist).
        var removedIDs: [String] = []
        for seq in removed {
            if let id = try await rows.userID(seq: seq) { removedIDs.append(id) }
        }
        return (Self.ids(of: added, in: known), removedIDs)
    }
}
