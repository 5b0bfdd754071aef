import Foundation
import GRDB
import RosterKit

/// How a group is read from and written to the `groups` table.
enum GroupRow {
    /// The columns of `Group`, in the order `group(from:)` reads them.
    static let columns = "groups.id, groups.name, groups.member_count, groups.created_at, groups.updated_at"

    static func group(from row: Row) -> Group {
        Group(
            id: row[0], name: row[1], memberCount: row[2],
            createdAt: Milliseconds.date(row[3]), updatedAt: Milliseconds.date(row[4]))
    }

    /// The group with that id, and its row's `seq` (what memberships refer to).
    static func fetchWithSeq(id: String, in db: Database) throws -> (seq: Int64, group: Group)? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns), groups.seq FROM groups WHERE id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [id]) else { return nil }
        return (row[5], group(from: row))
    }

    static func fetch(seq: Int64, in db: Database) throws -> Group? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM groups WHERE seq = ?")
        return try Row.fetchOne(statement, arguments: [seq]).map(group(from:))
    }

    static func insert(_ group: Group, in db: Database) throws {
        try db.cachedStatement(literal: """
            INSERT INTO groups (id, name, name_key, created_at, updated_at)
            VALUES (\(group.id), \(group.name), \(SortKey.of(group.name)),
                    \(Milliseconds.of(group.createdAt)), \(Milliseconds.of(group.updatedAt)))
            """).execute()
    }

    static func rename(seq: Int64, to name: String, updatedAt: Date, in db: Database) throws {
        try db.cachedStatement(literal: """
            UPDATE groups SET name = \(name), name_key = \(SortKey.of(name)), updated_at = \(Milliseconds.of(updatedAt)),
                revision = revision + 1
            WHERE seq = \(seq)
            """).execute()
    }

    /// Marks a membership change: the group's `updated_at` moves, never backwards, and its SCIM version.
    static func touch(seq: Int64, at now: Date, in db: Database) throws {
        try db.cachedStatement(literal: """
            UPDATE groups SET updated_at = max(updated_at, \(Milliseconds.of(now))), revision = revision + 1 WHERE seq = \(seq)
            """).execute()
    }

    /// Which unique index refused a write, if that is what `error` is.
    static func uniqueViolation(_ error: any Error) -> UniqueColumn? {
        guard let error = error as? DatabaseError, error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE else { return nil }
        let message = error.message ?? ""
        if message.contains("groups.name_key") { return .name }
        if message.contains("groups.id") { return .id }
        return nil
    }

    enum UniqueColumn { case name, id }
}
