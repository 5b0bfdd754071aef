import Foundation
import GRDB
import RosterKit

/// How a user is read from and written to the `users` table.
enum UserRow {
    /// The columns of `User`, in the order `user(from:)` reads them.
    static let columns = "users.id, users.name, users.email, users.role, users.status, users.created_at, users.updated_at"

    static func user(from row: Row) -> User {
        User(
            id: row[0], name: row[1], email: row[2],
            role: Role(rawValue: row[3]), status: Status(rawValue: row[4]),
            createdAt: Milliseconds.date(row[5]), updatedAt: Milliseconds.date(row[6]))
    }

    static let insertSQL = """
        INSERT INTO users (id, name, email, role, status, created_at, updated_at, name_key, email_key, json)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func insertArguments(_ user: User) -> StatementArguments {
        insertArguments(user, nameKey: SortKey.of(user.name), emailKey: SortKey.of(user.email))
    }

    /// With the folded keys already made (a bulk load needs them twice).
    static func insertArguments(_ user: User, nameKey: String, emailKey: String) -> StatementArguments {
        insertArguments(user, nameKey: nameKey, emailKey: emailKey, json: UserJSON.objectText(user))
    }

    /// With the folded keys and the JSON already made (a bulk load makes them on another thread).
    static func insertArguments(_ user: User, nameKey: String, emailKey: String, json: String) -> StatementArguments {
        [user.id, user.name, user.email, user.role.rawValue, user.status.rawValue,
         Milliseconds.of(user.createdAt), Milliseconds.of(user.updatedAt), nameKey, emailKey, json]
    }

    /// The user with that id, with their groups, and the row's `seq` (what memberships refer to).
    static func fetchWithSeq(id: String, in db: Database) throws -> (seq: Int64, user: User)? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns), users.seq FROM users WHERE id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [id]) else { return nil }
        let seq: Int64 = row[7]
        var user = user(from: row)
        user.groups = try Memberships.groups(ofUserSeq: seq, in: db)
        return (seq, user)
    }

    static func fetch(id: String, in db: Database) throws -> User? {
        try fetchWithSeq(id: id, in: db)?.user
    }

    /// The `seq` of the user with that id.
    static func seq(id: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM users WHERE id = ?"), arguments: [id])
    }
}
