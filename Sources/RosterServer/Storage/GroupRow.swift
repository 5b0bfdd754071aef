import Foundation
import GRDB
import RosterKit

/// How a group is read from the `groups` table (`SQLiteRows` writes them).
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
}
