import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// A PostgreSQL database named by a URL, `postgres://user[:password]@host[:port]/database`,
/// and the connection pool every query goes through. The pool runs in a task of its own from
/// `open` until `close`.
final class PostgresDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        running = Task { await client.run() }
    }

    /// Connects, and brings the schema up to date (`PostgresSchema`); tests of an upgrade stop
    /// at an older `schemaVersion`.
    static func open(url: String, logger: Logger, schemaVersion: Int = .max) async throws -> PostgresDatabase {
        let database = PostgresDatabase(
            client: PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger), logger: logger)
        do {
            try await withConnectionDeadline(url: url) { try await PostgresSchema.migrate(database, upTo: schemaVersion) }
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
        var description: String {
            "Could not reach PostgreSQL at \(PostgresURL.redacted(url)) within \(PostgresDatabase.connectionDeadline): is it running, and do the user, password and database exist?"
        }
    }

    private static func withConnectionDeadline(url: String, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return true
            }
            group.addTask {
                try await Task.sleep(for: connectionDeadline)
                return false
            }
            let finished = try await group.next() ?? false
            group.cancelAll()
            guard finished else { throw Unreachable(url: url) }
        }
    }

    /// Closes every connection; queries after this fail.
    func close() async {
        running.cancel()
        await running.value
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A
    /// refusal (`StoreError`) thrown inside comes out as itself, not wrapped by the driver.
    func transaction<T>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
        do {
            return try await client.withTransaction(logger: logger, body)
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
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
        return configuration
    }
}
