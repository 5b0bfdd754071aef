import Foundation
import Logging
import PostgresNIO
import RosterKit

/// How a group is read from PostgreSQL's `groups` table (as `GroupRow` does on SQLite; `PostgresRows` writes them).
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
}
