import Foundation
import Logging
import PostgresNIO
import RosterKit

/// How SCIM reads users and groups on PostgreSQL (as `SCIMUserRecord` and `SCIMGroupRecord`
/// read themselves on SQLite): a page's groups or members in one query, not one per row.
enum PostgresSCIMRows {
    static func user(id: String, on connection: PostgresConnection, logger: Logger) async throws -> SCIMUserRecord? {
        guard PostgresErrors.isStorable(id) else { return nil }
        let query: PostgresQuery = "SELECT \(unescaped: SCIMUserRecord.columns) FROM users WHERE id = \(id)"
        return try await users(query, on: connection, logger: logger).first
    }

    /// Users from rows of `SCIMUserRecord.columns`, in their order, with their groups.
    static func users(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> [SCIMUserRecord] {
        var records: [SCIMUserRecord] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (seq, id, name, email, role, status, created, updated, userName, document, revision) in rows.decode(
            (Int64, String, String, String, String, String, Int64, Int64, String, String?, Int64).self
        ) {
            records.append(SCIMUserRecord(
                seq: seq,
                user: User(
                    id: id, name: name, email: email, role: Role(rawValue: role), status: Status(rawValue: status),
                    createdAt: Milliseconds.date(created), updatedAt: Milliseconds.date(updated)),
                userName: userName, document: SCIMDocumentColumn.read(document), revision: revision))
        }
        guard !records.isEmpty else { return [] }
        let groups = try await namesBySeq("""
            SELECT memberships.user_seq, groups.id, groups.name
            FROM memberships JOIN groups ON groups.seq = memberships.group_seq
            WHERE memberships.user_seq = ANY(\(records.map(\.seq)))
            ORDER BY groups.name_key, groups.id
            """, on: connection, logger: logger)
        return records.map { record in
            var record = record
            record.user.groups = (groups[record.seq] ?? []).map { GroupReference(id: $0.id, name: $0.name) }
            return record
        }
    }

    static func group(id: String, on connection: PostgresConnection, logger: Logger) async throws -> SCIMGroupRecord? {
        guard PostgresErrors.isStorable(id) else { return nil }
        let query: PostgresQuery = "SELECT \(unescaped: SCIMGroupRecord.columns) FROM groups WHERE id = \(id)"
        return try await groups(query, withMembers: true, on: connection, logger: logger).first
    }

    /// Groups from rows of `SCIMGroupRecord.columns`, in their order, with their members if asked.
    static func groups(
        _ query: PostgresQuery, withMembers: Bool, on connection: PostgresConnection, logger: Logger
    ) async throws -> [SCIMGroupRecord] {
        var records: [SCIMGroupRecord] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, name, members, created, updated, seq, document, revision) in rows.decode(
            (String, String, Int64, Int64, Int64, Int64, String?, Int64).self
        ) {
            records.append(SCIMGroupRecord(
                seq: seq,
                group: Group(
                    id: id, name: name, memberCount: Int(members),
                    createdAt: Milliseconds.date(created), updatedAt: Milliseconds.date(updated)),
                document: SCIMDocumentColumn.read(document), revision: revision, members: []))
        }
        guard withMembers, !records.isEmpty else { return records }
        let members = try await namesBySeq("""
            SELECT memberships.group_seq, users.id, users.name
            FROM memberships JOIN users ON users.seq = memberships.user_seq
            WHERE memberships.group_seq = ANY(\(records.map(\.seq)))
            ORDER BY users.name_key, users.id
            """, on: connection, logger: logger)
        return records.map { record in
            var record = record
            record.members = (members[record.seq] ?? []).map { GroupMember(id: $0.id, name: $0.name) }
            return record
        }
    }

    /// Rows of (seq, id, name) gathered by seq, each list in the query's order: the groups of a
    /// page's users, or the members of its groups.
    private static func namesBySeq(
        _ query: PostgresQuery, on connection: PostgresConnection, logger: Logger
    ) async throws -> [Int64: [(id: String, name: String)]] {
        var named: [Int64: [(id: String, name: String)]] = [:]
        for try await (seq, id, name) in try await connection.query(query, logger: logger).decode((Int64, String, String).self) {
            named[seq, default: []].append((id, name))
        }
        return named
    }

    /// A plan's `totalResults`.
    static func count(_ plan: SCIMListPlan, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var total = 0
        let rows = try await connection.query(PostgresSCIMDialect.query(plan.countSQL, plan.countArguments), logger: logger)
        for try await count in rows.decode(Int64.self) { total = Int(count) }
        return total
    }
}
