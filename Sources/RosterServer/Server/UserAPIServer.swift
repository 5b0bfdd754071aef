import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// Starts the user API: in-process for the `roster` app (loopback, any free port, silent), or
/// as the standalone `roster-server`.
///
/// ```swift
/// let server = try await UserAPIServer.start(ServerConfiguration(databasePath: path), logger: fileLogger)
/// let client = APIClient(baseURL: server.url, token: server.token)
/// …
/// await server.shutdown()
/// ```
///
/// Nothing is printed: everything the server has to say goes to `logger` (silent by default),
/// because when embedded the terminal belongs to the UI.
public enum UserAPIServer {
    /// Discards everything; the default, so an embedding app opts in to logs.
    public static let silentLogger = Logger(label: "roster.server") { _ in SwiftLogNoOpLogHandler() }

    /// How long a stop waits for the requests in flight before it cancels them: longer than
    /// any request's database deadline, so a request that can still be answered is.
    static func gracefulShutdownLimit(_ configuration: ServerConfiguration) -> Duration {
        configuration.databaseWorkDeadline + .seconds(5)
    }
    /// How long a cancelled request may take to end before the process is ended.
    static let cancellationLimit = Duration.seconds(10)

    public enum StartError: Error, CustomStringConvertible {
        case stoppedBeforeListening
        public var description: String { "the server stopped before it was listening" }
    }

    /// Opens (or creates and migrates) the database, SQLite or PostgreSQL, seeds it when asked and empty, binds, and
    /// returns once the server is listening.
    ///
    /// - Parameters:
    ///   - logger: receives request logs (info), seeding and lifecycle notes, and failures.
    ///   - onListening: called with the bound URL after the socket is bound and before the
    ///     first request is accepted (the standalone server prints its "listening on" line here).
    /// - Throws: when the database cannot be opened or the address cannot be bound.
    public static func start(
        _ configuration: ServerConfiguration,
        logger: Logger = UserAPIServer.silentLogger,
        onListening: (@Sendable (URL) -> Void)? = nil
    ) async throws -> RunningServer {
        let document = try OpenAPIDocument.load()
        // Before the database: a certificate that cannot be served stops the start at once.
        let certificate = try configuration.tls.map { files throws(TLSFileError) in try ServerCertificate(files: files) }
        if case .sqlite(let path) = configuration.database {
            try await SeededFile.createIfMissing(path: path, count: configuration.seedCount, logger: logger)
        }
        let backend = try await StoreBackend.open(
            configuration.database, queryBudget: configuration.queryBudget, workDeadline: configuration.databaseWorkDeadline, logger: logger)
        do {
            try await Seeder.seedIfEmpty(backend.store, count: configuration.seedCount, logger: logger)
        } catch {
            await backend.close()
            throw error
        }

        let router = Routes.makeRouter(
            store: backend.store, scimStore: backend.scimStore, tokenStore: backend.tokenStore, auditLog: backend.auditLog, configuration: configuration,
            openAPIDocument: document, logger: logger)
        let (bound, listening) = AsyncStream<URL>.makeStream()
        let host = configuration.host
        let requestedPort = configuration.port
        var services: [any Service] = []
        if let certificate, configuration.stopsOnSignals {
            services.append(await CertificateReloader.make(certificate: certificate, logger: logger))
        }
        if let keep = configuration.auditRetention {
            services.append(AuditRetention(log: backend.auditLog, keep: keep, now: configuration.now, logger: logger))
        }
        let secure = certificate != nil
        let app = HTTPService(
            responder: router.buildResponder(),
            server: try certificate.map { try HTTPServerBuilder.http2Upgrade(tlsConfiguration: $0.tlsConfiguration()) } ?? .http1(),
            address: .hostname(host, port: requestedPort),
            logger: logger,
            onServerRunning: { channel in
                let url = baseURL(host: host, port: channel.localAddress?.port ?? requestedPort, secure: secure)
                onListening?(url)
                listening.yield(url)
                listening.finish()
            })
        var groupConfiguration = ServiceGroupConfiguration(
            services: [app as any Service] + services, gracefulShutdownSignals: configuration.stopsOnSignals ? [UnixSignal.sigterm, .sigint] : [], logger: logger)
        // A stop waits for the requests in flight, but not forever: each request's database
        // work ends within its deadline (`PostgresDatabase.withConnection`), so past this a
        // request is stuck, and the group cancels it; a service that ignores even that ends the
        // process (swift-service-lifecycle's fatal error) rather than leaving it running.
        groupConfiguration.maximumGracefulShutdownDuration = UserAPIServer.gracefulShutdownLimit(configuration)
        groupConfiguration.maximumCancellationDuration = UserAPIServer.cancellationLimit
        let group = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            defer { listening.finish() }
            do {
                try await group.run()
            } catch {
                await backend.close()
                throw error
            }
            await backend.close()
        }

        var iterator = bound.makeAsyncIterator()
        guard let url = await iterator.next() else {
            try await task.value // the reason it stopped, e.g. the port is taken
            throw StartError.stoppedBeforeListening
        }
        return RunningServer(url: url, token: configuration.token, certificate: certificate, group: group, task: task)
    }

    /// `http://host:port` (`https` with TLS), with an IPv6 host in brackets.
    static func baseURL(host: String, port: Int, secure: Bool = false) -> URL {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(secure ? "https" : "http")://\(shownHost):\(port)")!
    }
}
