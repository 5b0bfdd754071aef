import Foundation
import Logging
import PostgresNIO
import RosterKit

/// How a user is read from and written to PostgreSQL's `users` table (as `UserRow` does on SQLite).
enum PostgresUserRows {
    static let columns = "users.id, users.name, users.email, users.role, users.status, users.created_at, users.updated_at"

    /// The user with that id, with their groups, and the row's `seq` (what memberships refer to).
    static func fetchWithSeq(id: String, on connection: PostgresConnection, logger: Logger) async throws -> (seq: Int64, user: User)? {
        guard PostgresErrors.isStorable(id) else { return nil }
        let query: PostgresQuery = "SELECT \(unescaped: columns), users.seq FROM users WHERE id = \(id)"
        guard let (seq, user) = try await fetchOne(query, on: connection, logger: logger) else { return nil }
        var withGroups = user
        withGroups.groups = try await PostgresMemberships.groups(ofUserSeq: seq, on: connection, logger: logger)
        return (seq, withGroups)
    }

    /// The user of row `seq` without their groups.
    static func fetch(seq: Int64, on connection: PostgresConnection, logger: Logger) async throws -> User? {
        try await fetchOne("SELECT \(unescaped: columns), users.seq FROM users WHERE seq = \(seq)", on: connection, logger: logger)?.user
    }

    private static func fetchOne(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> (seq: Int64, user: User)? {
        let rows = try await connection.query(query, logger: logger)
        var found: (seq: Int64, user: User)?
        // Read to the end (one row at most): the connection runs the next query after this one.
        for try await (id, name, email, role, status, created, updated, seq) in rows.decode(
            (String, String, String, String, String, Int64, Int64, Int64).self
        ) {
            found = (seq, User(
                id: id, name: name, email: email, role: Role(rawValue: role), status: Status(rawValue: status),
                createdAt: Milliseconds.date(created), updatedAt: Milliseconds.date(updated)))
        }
        return found
    }

    /// The `seq`s of the users with these ids, by id; ids no user has are missing.
    static func seqs(ofIDs ids: [String], on connection: PostgresConnection, logger: Logger) async throws -> [String: Int64] {
        let ids = ids.filter(PostgresErrors.isStorable)
        guard !ids.isEmpty else { return [:] }
        var seqs: [String: Int64] = [:]
        let rows = try await connection.query("SELECT id, seq FROM users WHERE id = ANY(\(ids))", logger: logger)
        for try await (id, seq) in rows.decode((String, Int64).self) { seqs[id] = seq }
        return seqs
    }

    /// Inserts a new user, with its SCIM columns when made over SCIM; false when its id is taken.
    /// - Throws: `emailTaken`, `userNameTaken`.
    static func insert(_ user: User, scim: SCIMUserWrite?, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let query: PostgresQuery
        // A Roster API insert names only the columns every schema version has (tests fill
        // databases at old versions through it).
        if let scim {
            let document = PostgresSCIMDocument(scim.document)
            query = """
                INSERT INTO users (id, name, email, role, status, created_at, updated_at, name_key, email_key, json,
                    user_name, user_name_key, scim, scim_json)
                VALUES (\(user.id), \(user.name), \(user.email), \(user.role.rawValue), \(user.status.rawValue),
                    \(Milliseconds.of(user.createdAt)), \(Milliseconds.of(user.updatedAt)), \(SortKey.of(user.name)),
                    \(SortKey.of(user.email)), \(UserJSON.objectText(user)), \(scim.userName), \(SortKey.of(scim.userName)),
                    \(document.text), \(document.jsonText)::jsonb)
                ON CONFLICT (id) DO NOTHING RETURNING seq
                """
        } else {
            query = """
                INSERT INTO users (id, name, email, role, status, created_at, updated_at, name_key, email_key, json)
                VALUES (\(user.id), \(user.name), \(user.email), \(user.role.rawValue), \(user.status.rawValue),
                    \(Milliseconds.of(user.createdAt)), \(Milliseconds.of(user.updatedAt)), \(SortKey.of(user.name)),
                    \(SortKey.of(user.email)), \(UserJSON.objectText(user)))
                ON CONFLICT (id) DO NOTHING RETURNING seq
                """
        }
        return try await !refusingTakenNames { try await connection.query(query, logger: logger).collect() }.isEmpty
    }

    /// Writes the user's columns, and its SCIM columns when written over SCIM, to row `seq`.
    /// - Throws: `emailTaken`, `userNameTaken`.
    static func update(_ user: User, seq: Int64, scim: SCIMUserWrite?, on connection: PostgresConnection, logger: Logger) async throws {
        let query: PostgresQuery
        if let scim {
            let document = PostgresSCIMDocument(scim.document)
            query = """
                UPDATE users SET name = \(user.name), email = \(user.email), role = \(user.role.rawValue),
                    status = \(user.status.rawValue), updated_at = \(Milliseconds.of(user.updatedAt)),
                    name_key = \(SortKey.of(user.name)), email_key = \(SortKey.of(user.email)),
                    json = \(UserJSON.objectText(user)), user_name = \(scim.userName),
                    user_name_key = \(SortKey.of(scim.userName)), scim = \(document.text),
                    scim_json = \(document.jsonText)::jsonb, revision = revision + 1
                WHERE seq = \(seq)
                """
        } else {
            query = """
                UPDATE users SET name = \(user.name), email = \(user.email), role = \(user.role.rawValue),
                    status = \(user.status.rawValue), updated_at = \(Milliseconds.of(user.updatedAt)),
                    name_key = \(SortKey.of(user.name)), email_key = \(SortKey.of(user.email)),
                    json = \(UserJSON.objectText(user)), revision = revision + 1
                WHERE seq = \(seq)
                """
        }
        _ = try await refusingTakenNames { try await connection.query(query, logger: logger).collect() }
    }

    /// Keeps `users.json` true after a change that is not to the user's own row: a membership,
    /// or the name of a group they are in. Inside the changing transaction.
    static func refreshJSON(userSeqs: some Sequence<Int64>, on connection: PostgresConnection, logger: Logger) async throws {
        for seq in userSeqs {
            guard var user = try await fetch(seq: seq, on: connection, logger: logger) else { continue }
            user.groups = try await PostgresMemberships.groups(ofUserSeq: seq, on: connection, logger: logger)
            try await connection.query(
                "UPDATE users SET json = \(UserJSON.objectText(user)), revision = revision + 1 WHERE seq = \(seq)",
                logger: logger)
        }
    }

    /// Runs a write, turning the unique indexes' refusals of an email or userName into the store's.
    private static func refusingTakenNames<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch let error as PSQLError {
            switch PostgresErrors.uniqueViolation(error) {
            case "users_email_key": throw StoreError.emailTaken
            case PostgresSchema.userNameIndex.name: throw StoreError.userNameTaken
            default: throw error
            }
        }
    }
}

/// What PostgreSQL's errors say, as far as the store acts on them.
enum PostgresErrors {
    /// Whether PostgreSQL can hold `text`: its text type refuses NUL, which no stored id or
    /// name has (validation refuses control characters), so a lookup by such text finds nothing.
    static func isStorable(_ text: String) -> Bool {
        !text.utf8.contains(0)
    }

    /// The unique index a write broke, or nil when `error` is something else.
    static func uniqueViolation(_ error: PSQLError) -> String? {
        guard error.serverInfo?[.sqlState] == "23505" else { return nil }
        return error.serverInfo?[.constraintName]
    }

    /// Whether `error` is a statement PostgreSQL cancelled (`statement_timeout` ran out).
    static func isCancelledByTimeout(_ error: PSQLError) -> Bool {
        error.serverInfo?[.sqlState] == "57014"
    }
}
