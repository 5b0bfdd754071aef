import Foundation
import Logging
import PostgresNIO
import RosterKit

/// SCIM's reads and writes of groups on PostgreSQL. Members are set as a whole (what a SCIM
/// group says its members are), as the difference from the current ones, in the write's
/// transaction; an id that is no user's refuses the whole write, so no membership ever dangles.
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

    func createSCIMGroup(_ write: SCIMGroupWrite, at now: Date) async throws -> SCIMGroupRecord {
        let milliseconds = Milliseconds.of(now)
        let document = PostgresSCIMDocument(write.document)
        return try await self.write { connection in
            let group = try await self.insertGroup(named: write.name, atMilliseconds: milliseconds, on: connection)
            guard let (seq, _) = try await PostgresGroupRows.fetchWithSeq(id: group.id, on: connection, logger: self.logger) else {
                throw StoreError.groupNotFound
            }
            try await connection.query(
                "UPDATE groups SET scim = \(document.text), scim_json = \(document.jsonText)::jsonb WHERE seq = \(seq)", logger: self.logger)
            try await Self.setMembers(write.memberIDs, ofGroupSeq: seq, at: milliseconds, on: connection, logger: self.logger)
            return try await Self.scimGroup(id: group.id, on: connection, logger: self.logger)
        }
    }

    func modifySCIMGroup(
        id: String, ifMatch: String?, at now: Date,
        change: @escaping @Sendable (SCIMGroupRecord) throws -> SCIMGroupWrite
    ) async throws -> SCIMGroupRecord {
        let milliseconds = Milliseconds.of(now)
        return try await write { connection in
            let current = try await Self.scimGroup(id: id, on: connection, logger: self.logger)
            try ETag.check(ifMatch: ifMatch, version: current.version)
            let write = try change(current)
            let updatedAt = max(milliseconds, Milliseconds.of(current.group.createdAt))
            if write.name != current.group.name {
                try await PostgresGroupRows.rename(
                    seq: current.seq, to: write.name, updatedAt: Milliseconds.date(updatedAt), on: connection, logger: self.logger)
                let members = try await PostgresMemberships.userSeqs(ofGroupSeq: current.seq, on: connection, logger: self.logger)
                try await PostgresUserRows.refreshJSON(userSeqs: members, on: connection, logger: self.logger)
            }
            let document = PostgresSCIMDocument(write.document)
            try await connection.query("""
                UPDATE groups SET scim = \(document.text), scim_json = \(document.jsonText)::jsonb,
                    updated_at = greatest(updated_at, \(updatedAt)), revision = revision + 1
                WHERE seq = \(current.seq)
                """, logger: self.logger)
            try await Self.setMembers(write.memberIDs, ofGroupSeq: current.seq, at: milliseconds, on: connection, logger: self.logger)
            return try await Self.scimGroup(id: id, on: connection, logger: self.logger)
        }
    }

    func deleteSCIMGroup(id: String, ifMatch: String?) async throws {
        try await write { connection in
            let current = try await Self.scimGroup(id: id, on: connection, logger: self.logger)
            try ETag.check(ifMatch: ifMatch, version: current.version)
            let members = try await PostgresMemberships.userSeqs(ofGroupSeq: current.seq, on: connection, logger: self.logger)
            try await connection.query("DELETE FROM groups WHERE seq = \(current.seq)", logger: self.logger)
            try await PostgresUserRows.refreshJSON(userSeqs: members, on: connection, logger: self.logger)
        }
    }

    private static func scimGroup(id: String, on connection: PostgresConnection, logger: Logger) async throws -> SCIMGroupRecord {
        guard let record = try await PostgresSCIMRows.group(id: id, on: connection, logger: logger) else { throw StoreError.groupNotFound }
        return record
    }

    /// Makes the group's members exactly `ids` (repeats ignored), adding and removing each set
    /// in one statement.
    /// - Throws: `unknownUsers` naming every id no user has; nothing is changed then.
    private static func setMembers(
        _ ids: [String], ofGroupSeq groupSeq: Int64, at milliseconds: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let known = try await PostgresUserRows.seqs(ofIDs: ids, on: connection, logger: logger)
        let unknown = ids.enumerated().filter { known[$0.element] == nil }.map { index, id in
            FieldError(field: "members[\(index)].value", message: "No user has the id “\(id.prefix(100))”.")
        }
        guard unknown.isEmpty else { throw StoreError.unknownUsers(unknown) }
        let wanted = Set(known.values)
        let current = Set(try await PostgresMemberships.userSeqs(ofGroupSeq: groupSeq, on: connection, logger: logger))
        var changed: [Int64] = []
        let added = wanted.subtracting(current).sorted()
        if !added.isEmpty {
            let rows = try await connection.query("""
                INSERT INTO memberships (group_seq, user_seq) SELECT \(groupSeq), unnest(\(added)::bigint[])
                ON CONFLICT DO NOTHING RETURNING user_seq
                """, logger: logger)
            for try await seq in rows.decode(Int64.self) { changed.append(seq) }
        }
        let removed = current.subtracting(wanted).sorted()
        if !removed.isEmpty {
            let rows = try await connection.query(
                "DELETE FROM memberships WHERE group_seq = \(groupSeq) AND user_seq = ANY(\(removed)) RETURNING user_seq",
                logger: logger)
            for try await seq in rows.decode(Int64.self) { changed.append(seq) }
        }
        guard !changed.isEmpty else { return }
        try await PostgresGroupRows.touch(seq: groupSeq, at: Milliseconds.date(milliseconds), on: connection, logger: logger)
        try await PostgresUserRows.refreshJSON(userSeqs: changed.sorted(), on: connection, logger: logger)
    }
}
