import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOSSL
import PostgresNIO

/// A PostgreSQL database named by a URL, `postgres://user[:password]@host[:port]/database`,
/// and the connection pool every query goes through. The pool runs in a task of its own from
/// `open` until `close`.
final class PostgresDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// How long one call of `withConnection` may take, the wait for a connection included.
    let workDeadline: Duration
    private let running: Task<Void, Never>

    private init(client: PostgresClient, logger: Logger, workDeadline: Duration) {
        self.client = client
        self.logger = logger
        self.workDeadline = workDeadline
        running = Task { await client.run() }
    }

    /// Long enough for any request's work under load (a list's statements stop at their
    /// budget of 250 ms; a write waits for the writes before it), and well inside a client's
    /// 30 s deadline, so the client hears a 503 rather than nothing.
    static let standardWorkDeadline = Duration.seconds(15)

    /// For migrations and seeding, which rewrite millions of rows: bounded, not short.
    static let maintenanceDeadline = Duration.seconds(3600)

    /// Connects, and brings the schema up to date (`PostgresSchema`); tests of an upgrade stop
    /// at an older `schemaVersion`. Only reaching the database is bounded by
    /// `connectionDeadline`: the migrations have the maintenance deadline, since one that
    /// rewrites a million users takes minutes, and under load even an empty database's took
    /// longer than 30 s (the test suite's first run on a new machine).
    static func open(
        url: String, logger: Logger, schemaVersion: Int = .max, workDeadline: Duration = standardWorkDeadline,
        connectionDeadline: Duration = connectionDeadline
    ) async throws -> PostgresDatabase {
        let database = PostgresDatabase(
            client: PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger), logger: logger,
            workDeadline: workDeadline)
        do {
            do {
                try await database.withConnection(deadline: connectionDeadline) { [logger] connection in
                    _ = try await connection.query("SELECT 1", logger: logger)
                }
            } catch StoreError.databaseUnavailable {
                throw Unreachable(url: url, waited: connectionDeadline)
            }
            try await PostgresSchema.migrate(database, upTo: schemaVersion)
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// How long the first connection may take. The pool retries a database it cannot reach
    /// (down, wrong name, wrong password) without failing the waiting query, so a server that
    /// cannot start says so instead of waiting forever.
    static let connectionDeadline: Duration = .seconds(30)

    struct Unreachable: Error, CustomStringConvertible {
        var url: String
        var waited: Duration
        var description: String {
            "Could not reach PostgreSQL at \(PostgresURL.redacted(url)) within \(waited): is it running, and do the user, password and database exist?"
        }
    }

    /// Runs `statement` (VACUUM, which cannot run in a transaction) on a connection of its own,
    /// with the maintenance deadline.
    func maintain(_ statement: PostgresQuery) async throws {
        try await withConnection(deadline: Self.maintenanceDeadline) { [logger] connection in
            _ = try await connection.query(statement, logger: logger)
        }
    }

    /// Closes every connection; queries after this fail.
    func close() async {
        running.cancel()
        await running.value
    }

    /// Runs `body` on a connection of the pool: the one way in for the store's work. If the
    /// wait for a connection and `body` together take longer than `deadline` (the database's
    /// `workDeadline` unless given), the caller gets `StoreError.databaseUnavailable`, and the
    /// connection is closed under the work, so PostgreSQL rolls back what it had begun
    /// (`WorkDeadline` says why this is needed). A database out of reach (down, restarting, a
    /// connection cut) is the same error, which clients may try again.
    func withConnection<T: Sendable>(
        deadline: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let lease = NIOLockedValueBox(AbandonableLease.waiting)
        do {
            return try await WorkDeadline.run(within: deadline ?? workDeadline) {
                let connection: PostgresConnection? = lease.withLockedValue { lease in
                    defer { lease = .abandoned }
                    if case .holding(let connection) = lease { return connection }
                    return nil
                }
                // From the timer's thread, not a task: a busy process may give a task no thread for a while.
                let _: EventLoopFuture<Void>? = connection?.close()
            } _: { [client] in
                try await client.withConnection { connection in
                    // Abandoned while it waited for this connection (or for a thread to run
                    // on): nothing may be sent, or the write would land after its 503.
                    let abandoned = lease.withLockedValue { lease in
                        if case .abandoned = lease { return true }
                        lease = .holding(connection)
                        return false
                    }
                    if abandoned { throw CancellationError() }
                    return try await body(connection)
                }
            }
        } catch is WorkDeadline.Passed {
            logger.error("PostgreSQL did not answer in time; the connection was closed", metadata: [
                "deadline": "\(deadline ?? workDeadline)",
            ])
            throw StoreError.databaseUnavailable
        } catch where PostgresErrors.isUnavailable(error) {
            logger.error("PostgreSQL is unavailable", metadata: ["error": "\(String(reflecting: error))"])
            throw StoreError.databaseUnavailable
        }
    }

    /// Where one call of `withConnection` stands, as its deadline sees it.
    private enum AbandonableLease {
        case waiting
        case holding(PostgresConnection)
        case abandoned
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A
    /// refusal (`StoreError`) thrown inside comes out as itself, not wrapped by the driver.
    func transaction<T: Sendable>(
        deadline: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withConnection(deadline: deadline) { [logger] connection in
            do {
                return try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error.commitError ?? error.beginError ?? error
            }
        }
    }
}

/// Reads a `postgres://` (or `postgresql://`) URL into the client's configuration. The user
/// defaults to `postgres`, the port to 5432 and the database to the user's name; `?sslmode=`
/// is `disable`, `prefer` (the default) or `require`; `?host=/path` connects through the unix
/// socket in that folder.
enum PostgresURL {
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// The URL without its password, for messages and logs.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    static func configuration(_ text: String) throws -> PostgresClient.Configuration {
        guard isPostgres(text), let components = URLComponents(string: text) else {
            throw Invalid(description: "\(text) is not a postgres:// URL.")
        }
        let parameters = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        let user = components.user.flatMap { $0.removingPercentEncoding ?? $0 }.flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"
        let password = components.password.flatMap { $0.removingPercentEncoding ?? $0 }
        let path = String(components.path.drop { $0 == "/" })
        let database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        let tls: PostgresClient.Configuration.TLS
        switch parameters["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        case let mode: throw Invalid(description: "sslmode=\(mode) is not disable, prefer or require.")
        }
        var configuration: PostgresClient.Configuration
        if let socketFolder = parameters["host"], socketFolder.hasPrefix("/") {
            let port = components.port ?? 5432
            configuration = .init(
                unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
            configuration = .init(
                host: host, port: components.port ?? 5432, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(5)
        // Upstream vapor/postgres-nio#657: with no minimum, a request queued when the last
        // connection dies is never served; a minimum of one makes the pool open a new one.
        configuration.options.minimumConnections = 1
        // A backend whose connection we closed (`withConnection`'s deadline) notices within a
        // second even while it waits for a lock, and ends, rather than running on (PostgreSQL 14+).
        configuration.options.additionalStartupParameters = [("client_connection_check_interval", "1000")]
        return configuration
    }
}
