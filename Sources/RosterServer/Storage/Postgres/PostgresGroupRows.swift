import Foundation
import Logging
import PostgresNIO
import RosterKit

/// How a group is read from and written to PostgreSQL's `groups` table (as `GroupRow` does on SQLite).
enum PostgresGroupRows {
    static let columns = "groups.id, groups.name, groups.member_count, groups.created_at, groups.updated_at"

    static func fetchWithSeq(id: String, on connection: PostgresConnection, logger: Logger) async throws -> (seq: Int64, group: Group)? {
        guard PostgresErrors.isStorable(id) else { return nil }
        return try await fetchAll("SELECT \(unescaped: columns), groups.seq FROM groups WHERE id = \(id)", on: connection, logger: logger).first
    }

    static func fetch(seq: Int64, on connection: PostgresConnection, logger: Logger) async throws -> Group? {
        try await fetchAll("SELECT \(unescaped: columns), groups.seq FROM groups WHERE seq = \(seq)", on: connection, logger: logger).first?.group
    }

    /// Rows of `columns` followed by `seq`.
    static func fetchAll(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> [(seq: Int64, group: Group)] {
        var groups: [(seq: Int64, group: Group)] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, name, members, created, updated, seq) in rows.decode((String, String, Int64, Int64, Int64, Int64).self) {
            groups.append((seq, Group(
                id: id, name: name, memberCount: Int(members),
                createdAt: Milliseconds.date(created), updatedAt: Milliseconds.date(updated))))
        }
        return groups
    }

    /// Inserts the group; false when its id is taken (draw another). A taken name throws `groupNameTaken`.
    static func insert(_ group: Group, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let milliseconds = Milliseconds.of(group.createdAt)
        do {
            let rows = try await connection.query("""
                INSERT INTO groups (id, name, name_key, created_at, updated_at)
                VALUES (\(group.id), \(group.name), \(SortKey.of(group.name)), \(milliseconds), \(milliseconds))
                ON CONFLICT (id) DO NOTHING RETURNING seq
                """, logger: logger).collect()
            return !rows.isEmpty
        } catch let error as PSQLError where PostgresErrors.uniqueViolation(error) == "groups_name_key" {
            throw StoreError.groupNameTaken
        }
    }

    static func rename(seq: Int64, to name: String, updatedAt: Date, on connection: PostgresConnection, logger: Logger) async throws {
        do {
            try await connection.query("""
                UPDATE groups SET name = \(name), name_key = \(SortKey.of(name)), updated_at = \(Milliseconds.of(updatedAt)),
                    revision = revision + 1
                WHERE seq = \(seq)
                """, logger: logger)
        } catch let error as PSQLError where PostgresErrors.uniqueViolation(error) == "groups_name_key" {
            throw StoreError.groupNameTaken
        }
    }

    /// Marks a membership change: the group's `updated_at` moves, never backwards.
    static func touch(seq: Int64, at now: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            "UPDATE groups SET updated_at = greatest(updated_at, \(Milliseconds.of(now))), revision = revision + 1 WHERE seq = \(seq)",
            logger: logger)
    }
}

/// Who is in which group on PostgreSQL: the `memberships` table, by row `seq` of group and user.
enum PostgresMemberships {
    /// A user's groups as the user carries them: by folded name, then id.
    static func groups(ofUserSeq userSeq: Int64, on connection: PostgresConnection, logger: Logger) async throws -> [GroupReference] {
        var groups: [GroupReference] = []
        let rows = try await connection.query("""
            SELECT groups.id, groups.name FROM memberships JOIN groups ON groups.seq = memberships.group_seq
            WHERE memberships.user_seq = \(userSeq) ORDER BY groups.name_key, groups.id
            """, logger: logger)
        for try await (id, name) in rows.decode((String, String).self) { groups.append(GroupReference(id: id, name: name)) }
        return groups
    }

    static func userSeqs(ofGroupSeq groupSeq: Int64, on connection: PostgresConnection, logger: Logger) async throws -> [Int64] {
        var seqs: [Int64] = []
        let rows = try await connection.query("SELECT user_seq FROM memberships WHERE group_seq = \(groupSeq)", logger: logger)
        for try await seq in rows.decode(Int64.self) { seqs.append(seq) }
        return seqs
    }

    /// Adds these users to the group; answers those who were not in it yet.
    static func add(userSeqs: [Int64], toGroupSeq groupSeq: Int64, on connection: PostgresConnection, logger: Logger) async throws -> [Int64] {
        guard !userSeqs.isEmpty else { return [] }
        return try await seqs(of: connection.query("""
            INSERT INTO memberships (group_seq, user_seq) SELECT \(groupSeq), unnest(\(userSeqs)::bigint[])
            ON CONFLICT DO NOTHING RETURNING user_seq
            """, logger: logger))
    }

    /// Takes these users out of the group; answers those who were in it.
    static func remove(userSeqs: [Int64], fromGroupSeq groupSeq: Int64, on connection: PostgresConnection, logger: Logger) async throws -> [Int64] {
        guard !userSeqs.isEmpty else { return [] }
        return try await seqs(of: connection.query(
            "DELETE FROM memberships WHERE group_seq = \(groupSeq) AND user_seq = ANY(\(userSeqs)) RETURNING user_seq", logger: logger))
    }

    private static func seqs(of rows: PostgresRowSequence) async throws -> [Int64] {
        var seqs: [Int64] = []
        for try await seq in rows.decode(Int64.self) { seqs.append(seq) }
        return seqs
    }
}
