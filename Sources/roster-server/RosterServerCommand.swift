import ArgumentParser
import Foundation
import Logging
import RosterServer

/// `roster-server`: the user API on a SQLite file, for a team or for a demo.
@main
struct RosterServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roster-server",
        abstract: "Serve Roster's user API (JSON over HTTP) from a SQLite or PostgreSQL database.",
        discussion: """
            Every /api/v1 call except /api/v1/health needs "Authorization: Bearer <token>". \
            The OpenAPI document is at /openapi.json. Request logs go to standard error. \
            SIGINT or SIGTERM stops the server after the requests in flight are answered.

            SCIM 2.0 (RFC 7643, 7644) is served on the same users, groups and token at \
            http://HOST:PORT/scim/v2: Users, Groups, Bulk, .search, and the discovery endpoints \
            ServiceProviderConfig, ResourceTypes and Schemas (these three need no token). To \
            provision from an identity provider (Okta, Entra ID, OneLogin, JumpCloud, authentik), \
            give it that URL as the SCIM base URL (or tenant URL) and the token as its \
            "Bearer token" / "API token" / "Secret token" (HTTP header authentication); behind \
            a TLS proxy (which sets X-Forwarded-Proto and X-Forwarded-Host), give the proxy's https URL with /scim/v2.

            With --tls-cert and --tls-key the server speaks HTTPS (HTTP/2 and HTTP/1.1) itself; \
            SIGHUP reads both files again (after a certificate rotation) without dropping \
            open connections. The key file must be readable by its owner only (chmod 600).

            Named tokens with scopes (read, write, scim, admin): see roster-server token --help. \
            Every change is recorded in the audit log: GET /api/v1/audit (admin scope) or roster-server audit.
            """,
        subcommands: [TokenCommand.self, AuditCommand.self])

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks any free port. The URL is printed as \"listening on http://HOST:PORT\".")
    var port = 8080

    /// Shared with the `token` and `audit` subcommands: ArgumentParser gives an option group
    /// the parent and a subcommand both declare to both, so `--database` after a subcommand
    /// name reaches it.
    @OptionGroup var databaseOption: DatabaseOption
    var database: String { databaseOption.database }

    @Option(help: ArgumentHelp(
        "The bootstrap token, with every scope. Defaults to $ROSTER_TOKEN; without either, a random token is generated and printed once. Named tokens: roster-server token.",
        valueName: "token"))
    var token: String?

    @Option(name: .customLong("seed"), help: ArgumentHelp("Add N realistic demo users when the database is empty.", valueName: "N"))
    var seedCount = 0

    @Option(help: ArgumentHelp("Answer this share (0...1) of calls under /api/v1/users with 503 and Retry-After: 1.", valueName: "R"))
    var failRate = 0.0

    @Option(help: ArgumentHelp("Answer the first N calls under /api/v1/users with 503 and Retry-After: 1.", valueName: "N"))
    var failFirst = 0

    @Option(help: ArgumentHelp("Add this many milliseconds to every call under /api/v1/users.", valueName: "MS"))
    var latency = 0

    @Option(help: ArgumentHelp("The least important log level written: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel = "info"

    @Option(help: ArgumentHelp(
        "Keep up to N recent list answers in memory, answered without a query; 0 turns the list cache off. Writes by other servers on the same database (an SQLite file or PostgreSQL) are seen at once.",
        valueName: "N"))
    var listCacheSize = ServerConfiguration.defaultListCacheEntries

    @Option(help: ArgumentHelp(
        "Serve HTTPS with this certificate chain (PEM, the server's certificate first). Needs --tls-key.",
        valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp(
        "The private key (PEM, unencrypted) of --tls-cert; refused when the group or others may read it.",
        valueName: "file"))
    var tlsKey: String?

    @Flag(help: "Serve plain HTTP on an address other than loopback, without --tls-cert: tokens and personal data then cross the network unencrypted (only behind a TLS proxy on a network you trust). Refused without this flag.")
    var insecureHTTP = false

    @Option(help: ArgumentHelp("Delete audit entries older than this (30d, 52w…) in the background; by default they are kept.", valueName: "duration"))
    var auditRetention: String?

    /// Serves GET /api/v1/_bench/floor for `make bench-server`; not for users.
    @Flag(help: .hidden)
    var benchmarkRoutes = false

    /// $ROSTER_DATABASE, else the SQLite file in the user's data folder.
    static var defaultDatabase: String {
        ProcessInfo.processInfo.environment["ROSTER_DATABASE"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultDatabasePath
    }

    static var defaultDatabasePath: String {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (dataHome as NSString).appendingPathComponent("roster/users.sqlite")
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate must be from 0 to 1.") }
        guard failFirst >= 0 else { throw ValidationError("--fail-first must not be negative.") }
        guard latency >= 0 else { throw ValidationError("--latency must not be negative.") }
        guard seedCount >= 0 else { throw ValidationError("--seed must not be negative.") }
        guard listCacheSize >= 0 else { throw ValidationError("--list-cache-size must not be negative.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level \(logLevel) is not a level.") }
        if let auditRetention {
            do { _ = try AuditAdministration.duration(auditRetention) } catch { throw ValidationError("--audit-retention: \(error.description)") }
        }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give both or neither.")
        }
        // Plain HTTP stays for loopback (and the embedded server); elsewhere it takes a flag
        // that says so, rather than a warning in a log nobody reads.
        if tlsCert == nil && !Self.isLoopback(host) && !insecureHTTP {
            throw ValidationError("""
                --host \(host) without --tls-cert and --tls-key would send tokens and personal data over the network unencrypted. \
                Give --tls-cert and --tls-key, listen on 127.0.0.1 behind a TLS proxy, or add --insecure-http to serve plain HTTP anyway.
                """)
        }
        if let token = givenToken {
            guard !token.isEmpty, token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw ValidationError("The token must be printable ASCII without spaces.")
            }
        }
    }

    /// --token, else $ROSTER_TOKEN.
    private var givenToken: String? {
        token ?? ProcessInfo.processInfo.environment["ROSTER_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "roster.server")

        let token = givenToken ?? ServerConfiguration.randomToken()
        if givenToken == nil {
            Self.printLine("token: \(token)")
        }
        var configuration = ServerConfiguration(
            databasePath: database, token: token, host: host, port: port, seedCount: seedCount,
            faults: FaultInjection(failRate: failRate, failFirst: failFirst, latency: .milliseconds(latency)),
            stopsOnSignals: true, benchmarkRoutes: benchmarkRoutes, listCacheEntries: listCacheSize,
            tls: tlsFiles)
        configuration.auditRetention = try auditRetention.map { text throws(TokenError) in try AuditAdministration.duration(text) }
        if tlsFiles == nil && !Self.isLoopback(host) {
            logger.warning("serving plain HTTP on \(host) (--insecure-http): tokens and personal data cross the network unencrypted; give --tls-cert and --tls-key, or listen on 127.0.0.1 behind a TLS proxy")
        }
        let server = try await UserAPIServer.start(configuration, logger: logger) { url in
            Self.printLine("listening on \(url.absoluteString)")
        }
        try await server.waitUntilStopped()
    }

    private var tlsFiles: TLSFiles? {
        guard let tlsCert, let tlsKey else { return nil }
        return TLSFiles(certificatePath: tlsCert, keyPath: tlsKey)
    }

    /// The loopback names and addresses: `localhost`, `::1` (bracketed or not), 127.0.0.0/8.
    static func isLoopback(_ host: String) -> Bool {
        ["localhost", "::1", "[::1]"].contains(host.lowercased())
            || (host.hasPrefix("127.") && host.split(separator: ".", omittingEmptySubsequences: false).count == 4
                && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }

    /// Straight to the file descriptor: stdout is block-buffered when piped, and a script
    /// waiting for "listening on" must see the line at once.
    private static func printLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
