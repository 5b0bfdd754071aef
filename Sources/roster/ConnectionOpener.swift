import Foundation
import Logging
import RosterKit
import RosterLDAP
import RosterServer
import RosterTUI

/// Opens connections from their settings: the embedded server (one a process: it owns its
/// database and a port) or a remote directory over its own transport (each profile has its own
/// CA file and timeouts). Keeps what it opened, to probe it cheaply and to shut it all down.
actor ConnectionOpener {
    struct Opened {
        var directory: any Directory
        var label: String
        var isEmbedded: Bool
    }

    private let environment: [String: String]
    private let makeLogger: @Sendable (String) -> Logger
    private var embedded: (owner: String?, server: RunningServer)?
    private var transports: [AsyncHTTPTransport] = []
    private var opened: [String: Opened] = [:]

    init(environment: [String: String], makeLogger: @escaping @Sendable (String) -> Logger) {
        self.environment = environment
        self.makeLogger = makeLogger
    }

    /// Opens the connection `settings` describe; `profile` names it for the embedded server's
    /// one-owner rule and for probes. An LDAP bind with no password source asks for it only
    /// when `mayPrompt` (at start, before the screen is taken).
    func open(_ settings: Settings, mayPrompt: Bool = false) async throws -> Opened {
        if let server = settings.server, LDAPConfiguration.isLDAPURL(server) {
            let result = try openLDAP(server, settings: settings, mayPrompt: mayPrompt)
            if let profile = settings.profile { opened[profile] = result }
            return result
        }
        let logger = makeLogger("roster")
        let baseURL: URL
        let tokens: TokenProvider?
        let label: String
        if let server = settings.server {
            baseURL = server
            tokens = settings.token.map(TokenProvider.init)
            label = Redaction.url(server) // the header adds the dialect once it is known
        } else {
            if let embedded {
                throw LaunchError("Only one embedded server runs in a process, and \(embedded.owner.map { "profile \($0)" } ?? "the first connection") has it.")
            }
            let configuration = ServerConfiguration(
                databasePath: settings.database, seedCount: settings.seedUsers,
                faults: FaultInjection(failRate: settings.demoFaults))
            let server: RunningServer
            do {
                server = try await UserAPIServer.start(configuration, logger: makeLogger("roster.server"))
            } catch {
                throw LaunchError("Could not start the embedded server on \(settings.database): \(error)")
            }
            logger.info("embedded server listening on \(server.url.absoluteString), database \(settings.database)")
            embedded = (settings.profile, server)
            baseURL = server.url
            tokens = TokenProvider(.literal(server.token, origin: "the embedded server"))
            label = "embedded \(server.url.host ?? "127.0.0.1"):\(server.url.port ?? 0)"
        }
        let transport: AsyncHTTPTransport
        do {
            transport = try AsyncHTTPTransport(options: settings.transportOptions(environment: environment))
        } catch {
            throw LaunchError(error.localizedDescription)
        }
        transports.append(transport)
        transport.prepare(for: baseURL)
        let client = APIClient(
            baseURL: baseURL, tokens: tokens, transport: transport,
            deadline: settings.requestTimeout, logger: makeLogger("roster.client"))
        let isEmbedded = settings.server == nil
        let directory = isEmbedded ? RemoteDirectory(client: client, choice: .roster) : remoteDirectory(client, at: baseURL, settings: settings)
        // The header names the connection: its profile first, as admins tell them apart by name.
        let result = Opened(directory: directory, label: settings.profile.map { "\($0) · \(label)" } ?? label, isEmbedded: isEmbedded)
        if let profile = settings.profile { opened[profile] = result }
        return result
    }

    /// An ldap:// or ldaps:// URL is an LDAP directory whatever --api says (auto finds it so).
    private func openLDAP(_ server: URL, settings: Settings, mayPrompt: Bool) throws -> Opened {
        let prompt: (() throws -> String)? = mayPrompt ? nil : {
            throw LaunchError("Profile \(settings.profile ?? "") binds with a password from passwordFile, passwordCommand or ROSTER_PASSWORD when opened from the picker: the screen cannot ask for it.")
        }
        let directory = LDAPDirectory(configuration: try settings.ldap.configuration(
            url: server, caFile: settings.caFile, connectTimeout: settings.connectTimeout, logger: makeLogger("roster.ldap"),
            prompt: prompt))
        let label = Redaction.url(server)
        return Opened(directory: directory, label: settings.profile.map { "\($0) · \(label)" } ?? label, isEmbedded: false)
    }

    /// With `--api auto`, the dialect this server spoke last time is asked first, and what the
    /// probe finds is kept for next time (`KnownDialects`).
    private func remoteDirectory(_ client: APIClient, at server: URL, settings: Settings) -> RemoteDirectory {
        guard settings.api == .auto, !settings.dialectsFile.isEmpty else { return RemoteDirectory(client: client, choice: settings.api) }
        let known = KnownDialects(path: settings.dialectsFile)
        let logger = makeLogger("roster")
        return RemoteDirectory(client: client, choice: .auto, lastFound: known.dialect(for: server)) { found in
            do { try known.remember(found, for: server) } catch {
                logger.notice("could not keep the dialect found in \(known.path): \(error.localizedDescription)")
            }
        }
    }

    /// A few words on a profile's state: through its open directory when it has one, else
    /// through a directory opened for the probe alone (an embedded one is not started for it).
    func probe(_ name: String, settings result: Result<Settings, SettingsError>) async -> String {
        if let directory = opened[name]?.directory { return await ConnectionCatalog.status(of: directory) }
        let settings: Settings
        switch result {
        case .failure(let error): return "✗ \(error.message)"
        case .success(let resolved): settings = resolved
        }
        if let server = settings.server, LDAPConfiguration.isLDAPURL(server) {
            guard settings.ldap.password != nil || settings.ldap.bindDN?.isEmpty != false else { return "LDAP · asks for its password when chosen" }
            guard let opened = try? openLDAP(server, settings: settings, mayPrompt: false) else { return "✗ cannot open" }
            return await ConnectionCatalog.status(of: opened.directory)
        }
        guard let server = settings.server else {
            if let embedded { return "✗ one embedded server a process (\(embedded.owner ?? "another") has it)" }
            return "embedded · starts when chosen"
        }
        let transport: AsyncHTTPTransport
        do { transport = try AsyncHTTPTransport(options: settings.transportOptions(environment: environment)) } catch {
            return "✗ \(error.localizedDescription)"
        }
        let client = APIClient(
            baseURL: server, tokens: settings.token.map(TokenProvider.init), transport: transport,
            deadline: min(settings.requestTimeout, .seconds(10)), logger: Logger(label: "roster.probe") { _ in SwiftLogNoOpLogHandler() })
        let status = await ConnectionCatalog.status(of: RemoteDirectory(client: client, choice: settings.api))
        await transport.shutdown(waitingAtMost: .milliseconds(250))
        return status
    }

    func shutdown() async {
        for transport in transports { await transport.shutdown(waitingAtMost: .milliseconds(250)) }
        transports = []
        await embedded?.server.shutdown()
        embedded = nil
    }
}
