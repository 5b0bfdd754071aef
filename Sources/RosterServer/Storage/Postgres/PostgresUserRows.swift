import Foundation
import Logging
import PostgresNIO
import _ConnectionPoolModule
import RosterKit

/// How a user is read from PostgreSQL's `users` table (as `UserRow` does on SQLite; `PostgresRows` writes them).
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

    /// Whether `error` says the database is out of reach for now rather than what the request
    /// asked: no connection, a connection cut (by either side), or a server shutting down, starting or in
    /// recovery (SQLSTATE class 08, and 57P01–57P03).
    static func isUnavailable(_ error: any Error) -> Bool {
        // The pool's circuit breaker (no connection for 60 s) throws its own error type.
        if error is ConnectionPoolError { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed: return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default: return false
        }
    }
}
