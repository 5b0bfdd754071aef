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

    /// Writes the user's columns to row `seq`, and SCIM's when written over SCIM.
    /// - Throws: `emailTaken`, `userNameTaken`.
    static func update(_ user: User, seq: Int64, scim: SCIMUserWrite?, in db: Database) throws {
        var assignments: SQL = """
            name = \(user.name), email = \(user.email), role = \(user.role.rawValue), status = \(user.status.rawValue),
            updated_at = \(Milliseconds.of(user.updatedAt)), name_key = \(SortKey.of(user.name)),
            email_key = \(SortKey.of(user.email)), json = \(UserJSON.objectText(user)), revision = revision + 1
            """
        if let scim {
            assignments += """
                , user_name = \(scim.userName), user_name_key = \(SortKey.of(scim.userName)),
                scim = \(SCIMDocumentColumn.text(scim.document))
                """
        }
        try refusingTakenNames { try db.cachedStatement(literal: "UPDATE users SET \(assignments) WHERE seq = \(seq)").execute() }
    }

    /// Inserts a new user, with SCIM's columns when made over SCIM; false when its id is taken.
    /// - Throws: `emailTaken`, `userNameTaken`.
    static func insert(_ user: User, scim: SCIMUserWrite?, in db: Database) throws -> Bool {
        do {
            try refusingTakenNames {
                if let scim {
                    try db.cachedStatement(literal: """
                        INSERT INTO users (id, name, email, role, status, created_at, updated_at, name_key, email_key, json,
                            user_name, user_name_key, scim)
                        VALUES (\(user.id), \(user.name), \(user.email), \(user.role.rawValue), \(user.status.rawValue),
                            \(Milliseconds.of(user.createdAt)), \(Milliseconds.of(user.updatedAt)), \(SortKey.of(user.name)),
                            \(SortKey.of(user.email)), \(UserJSON.objectText(user)), \(scim.userName),
                            \(SortKey.of(scim.userName)), \(SCIMDocumentColumn.text(scim.document)))
                        """).execute()
                } else {
                    try db.cachedStatement(sql: insertSQL).execute(arguments: insertArguments(user))
                }
            }
            return true
        } catch let error where uniqueViolation(error) == .id {
            return false
        }
    }

    /// Runs a write, turning the unique indexes' refusals of an email or userName into the store's.
    private static func refusingTakenNames(_ write: () throws -> Void) throws {
        do {
            try write()
        } catch {
            switch uniqueViolation(error) {
            case .email: throw StoreError.emailTaken
            case .userName: throw StoreError.userNameTaken
            case .id, nil: throw error
            }
        }
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

    /// Which unique index refused a write, if that is what `error` is.
    static func uniqueViolation(_ error: any Error) -> UniqueColumn? {
        guard let error = error as? DatabaseError, error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE else { return nil }
        let message = error.message ?? ""
        if message.contains("users.email_key") { return .email }
        if message.contains("users.id") { return .id }
        // The folded userName-or-email index (v4): for a Roster API write, the email is someone's userName.
        if message.contains("users_user_name") { return .userName }
        return nil
    }

    enum UniqueColumn { case email, id, userName }
}
