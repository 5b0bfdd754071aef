import Foundation

/// Everything a server needs to start. The defaults suit the embedded case: loopback, any free
/// port, no demo data, no faults, no signal handling (the host application owns signals).
public struct ServerConfiguration: Sendable {
    /// The address to listen on: "127.0.0.1" (default), "::1", "0.0.0.0"…
    public var host: String
    /// The port; 0 lets the system pick a free one (see `RunningServer.url` for the result).
    public var port: Int
    /// The SQLite file (it and its folders are created when missing; `sqlite:` before it is
    /// allowed), or a `postgres://user@host:port/database` URL (see `DatabaseLocation`).
    public var databasePath: String
    /// The bearer token every `/api/v1` call except health must carry.
    public var token: String
    /// Demo users to add when the database is empty (0 adds none).
    public var seedCount: Int
    /// Failures and latency to inject under `/api/v1/users` and `/api/v1/groups`; off by default.
    public var faults: FaultInjection
    /// Whether SIGTERM and SIGINT stop the server gracefully (in-flight requests finish).
    /// Off when embedded, where the host application owns signals; the standalone server sets it.
    public var stopsOnSignals: Bool
    /// Adds `GET /api/v1/_bench/floor?bytes=N`, the fixed-body route `make bench-server`
    /// measures the HTTP floor with. Off by default.
    public var benchmarkRoutes: Bool
    /// The most list answers kept in memory and answered without a query (least recently used
    /// out first; also capped at 8 MiB). 0 turns the list cache off: every list call runs its
    /// query. Writes by other processes on the same database are seen too: the cache follows
    /// the database's own write generation (SQLite's `data_version`, PostgreSQL's generation
    /// row), so it stays on with several servers.
    public var listCacheEntries: Int
    /// Serve HTTPS (and HTTP/2) with this certificate and key; nil serves plain HTTP, which
    /// suits loopback and the embedded server. With `stopsOnSignals`, SIGHUP reads them again.
    public var tls: TLSFiles?
    /// Audit entries older than this are deleted in the background; nil keeps them all.
    public var auditRetention: TimeInterval?

    /// Which database `databasePath` names.
    public var database: DatabaseLocation { DatabaseLocation(databasePath) }

    /// Where the server's "now" comes from: users' times and the age of idempotency keys.
    /// Not public: tests set it (through `@testable`) to prove that keys expire after 24 hours.
    var now: @Sendable () -> Date = { Date() }
    /// How long a list's query may run before it is stopped with a 503 (`SQLiteStore.queryBudget`).
    /// Not public: tests shorten it to make a search run out of time on a small directory.
    var queryBudget = QueryBudget.standard
    /// How long one PostgreSQL call may take, the wait for a connection included
    /// (`PostgresDatabase.withConnection`). Not public: tests whose subject it is not lengthen it.
    var databaseWorkDeadline = PostgresDatabase.standardWorkDeadline

    /// The list cache's size unless told otherwise.
    public static let defaultListCacheEntries = ListResponseCache.defaultMaximumEntries

    public init(
        databasePath: String,
        token: String = ServerConfiguration.randomToken(),
        host: String = "127.0.0.1",
        port: Int = 0,
        seedCount: Int = 0,
        faults: FaultInjection = .none,
        stopsOnSignals: Bool = false,
        benchmarkRoutes: Bool = false,
        listCacheEntries: Int = ServerConfiguration.defaultListCacheEntries,
        tls: TLSFiles? = nil
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.token = token
        self.seedCount = seedCount
        self.faults = faults
        self.stopsOnSignals = stopsOnSignals
        self.benchmarkRoutes = benchmarkRoutes
        self.listCacheEntries = max(0, listCacheEntries)
        self.tls = tls
    }

    /// 32 random bytes as 64 hex digits: unguessable, and safe in a header and a shell.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// Deliberate failures for demos and tests, applied to calls under `/api/v1/users` and
/// `/api/v1/groups`.
public struct FaultInjection: Sendable, Equatable {
    /// The share of calls (0...1) that answer 503 with `Retry-After: 1`.
    public var failRate: Double
    /// The first this-many calls answer 503 with `Retry-After: 1`.
    public var failFirst: Int
    /// Added to every call before it is answered.
    public var latency: Duration

    public init(failRate: Double = 0, failFirst: Int = 0, latency: Duration = .zero) {
        self.failRate = min(1, max(0, failRate))
        self.failFirst = max(0, failFirst)
        self.latency = max(.zero, latency)
    }

    public static let none = FaultInjection()

    public var isEnabled: Bool { failRate > 0 || failFirst > 0 || latency > .zero }
}
