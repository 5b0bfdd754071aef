import Foundation
import Logging
import RosterKit
import RosterLDAP
import RosterServer

/// `roster --check`: where Roster connects and whether it works, without starting the UI.
/// Each step prints one line; a failing step says what to do. Exit 0 when all is well.
struct ConnectionCheck {
    let settings: Settings
    let environment: [String: String]
    let output: @Sendable (String) -> Void

    func run() async -> Int32 {
        var report = CheckReport(output: output)
        var embedded: RunningServer?
        let baseURL: URL
        let tokens: TokenProvider?
        if let server = settings.server, LDAPConfiguration.isLDAPURL(server) {
            report.line("Server", Redaction.url(server))
            await checkLDAP(server, report: &report)
            return report.finish()
        }
        if let server = settings.server {
            baseURL = server
            tokens = settings.token.map(TokenProvider.init)
            report.line("Server", Redaction.url(server))
        } else {
            do {
                let server = try await UserAPIServer.start(ServerConfiguration(databasePath: settings.database, seedCount: settings.seedUsers))
                embedded = server
                baseURL = server.url
                tokens = TokenProvider(.literal(server.token, origin: "the embedded server"))
                report.line("Server", "\(server.url.absoluteString) (embedded, database \(settings.database))")
            } catch {
                report.fail("Embedded", "could not start on \(settings.database): \(error)",
                            fix: "Check that the folder can be written, or name a server with --server.")
                return report.finish()
            }
        }
        await check(baseURL, tokens: tokens, report: &report)
        await embedded?.shutdown()
        return report.finish()
    }

    private func check(_ url: URL, tokens: TokenProvider?, report: inout CheckReport) async {
        let options: TransportOptions
        do {
            options = try settings.transportOptions(environment: environment)
        } catch {
            report.fail("Proxy", error.localizedDescription, fix: error.recoverySuggestion)
            return
        }
        let secure = url.scheme?.lowercased() == "https"
        let host = url.host ?? "?"
        let port = url.port ?? (secure ? 443 : 80)
        let proxy = options.proxies.proxy(for: url)
        if let proxy {
            report.line("Proxy", "\(proxy.summary) (\(secure ? "HTTPS_PROXY" : "HTTP_PROXY"))")
            report.line("Address", "looked up by the proxy")
        } else {
            report.line("Proxy", "none")
            do {
                let addresses = try await AddressLookup.addresses(of: host, port: port)
                report.line("Address", "\(host) → \(addresses.prefix(4).joined(separator: ", "))")
            } catch {
                report.fail("Address", error.localizedDescription, fix: "Check the host name in the server URL, and the network.")
                return
            }
        }
        if secure && proxy == nil {
            do {
                let tls = try await TLSProbe.probe(host: host, port: port, caFile: options.caFile, timeout: options.connectTimeout)
                let summary = "\(tls.version); certificate \(tls.subject); issued by \(tls.issuer)"
                if let problem = tls.trustProblem {
                    report.fail("TLS", "\(summary); \(problem)",
                                fix: "If the server uses a private certificate authority, set caFile in the configuration to its certificate (PEM).")
                    return
                }
                report.line("TLS", "\(summary); trusted")
            } catch {
                report.fail("TLS", "no connection: \(error)", fix: "Check that the server is running and the port is right.")
                return
            }
        }

        let transport: AsyncHTTPTransport
        do {
            transport = try AsyncHTTPTransport(options: options)
        } catch {
            report.fail("TLS", error.localizedDescription, fix: error.recoverySuggestion)
            return
        }
        defer { Task { await transport.shutdown() } }
        let quiet = Logger(label: "roster.check") { _ in SwiftLogNoOpLogHandler() }
        // A SCIM service (named, or found by the same probe the app runs) is checked in SCIM's
        // words; everything else as the Roster API, whose failures say what is wrong.
        let authenticated = APIClient(baseURL: url, tokens: tokens, transport: transport, retryPolicy: .never,
                                      deadline: settings.requestTimeout, logger: quiet)
        let scim = switch settings.server == nil ? DialectChoice.roster : settings.api {
        case .scim: true
        case .roster: false
        case .auto: (try? await DialectProbe.detect(authenticated)) == .scim
        }
        if scim { return await checkSCIM(authenticated, tokens: tokens, report: &report) }
        let anonymous = APIClient(baseURL: url, tokens: nil, transport: transport, retryPolicy: .never,
                                  deadline: settings.requestTimeout, logger: quiet)
        let clock = ContinuousClock()
        let started = clock.now
        let health: HealthStatus
        do {
            health = try await anonymous.send(UserEndpoint.health)
        } catch let error as APIError {
            if case .notFound = error {
                report.fail("API", "GET /api/v1/health answered 404: this is not the Roster API",
                            fix: "Check the server URL, including any path prefix (https://host/roster/).")
            } else {
                report.fail("Round trip", error.localizedDescription, fix: error.recoverySuggestion)
            }
            return
        } catch {
            report.fail("Round trip", "\(error)", fix: nil)
            return
        }
        let first = clock.now - started
        let again = clock.now
        _ = try? await anonymous.response(for: UserEndpoint.health)
        let second = clock.now - again
        report.line("Round trip", "\(first.millisecondsText) ms for the first request (connecting included), \(second.millisecondsText) ms for the next")
        let features = health.features ?? []
        let version = health.version.map { " \($0)" } ?? ""
        report.line("API", "Roster API (roster-server\(version)\(features.isEmpty ? "" : "; " + features.joined(separator: ", ")))")

        guard let tokens else {
            report.fail("Token", "none given", fix: "Give one with --token, ROSTER_TOKEN, tokenFile or tokenCommand.")
            return
        }
        let client = APIClient(baseURL: url, tokens: tokens, transport: transport, retryPolicy: .never,
                               deadline: settings.requestTimeout, logger: quiet)
        do {
            let page: Page<User> = try await client.send(UserEndpoint.list(UserQuery(perPage: 1)))
            report.line("Token", "from \(tokens.source.summary): accepted (\(page.total) users)")
        } catch let error as APIError {
            switch error {
            case .unauthorized:
                report.fail("Token", "from \(tokens.source.summary): refused (401)", fix: error.recoverySuggestion)
            default:
                report.fail("Token", "from \(tokens.source.summary): \(error.localizedDescription)", fix: error.recoverySuggestion)
            }
        } catch {
            report.fail("Token", "\(error)", fix: nil)
        }
    }
}

extension ConnectionCheck {
    /// Round trip, API and token for a SCIM 2.0 service: its /ServiceProviderConfig, then
    /// one user, which needs the token.
    private func checkSCIM(_ client: APIClient, tokens: TokenProvider?, report: inout CheckReport) async {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            _ = try await client.response(for: SCIMEndpoint.serviceProviderConfig)
        } catch let error as APIError {
            if case .unauthorized = error {
                report.fail("Token", "\(tokens.map { "from \($0.source.summary): " } ?? "")refused (401)", fix: error.recoverySuggestion)
            } else {
                report.fail("Round trip", error.localizedDescription, fix: error.recoverySuggestion)
            }
            return
        } catch {
            report.fail("Round trip", "\(error)", fix: nil)
            return
        }
        report.line("Round trip", "\((clock.now - started).millisecondsText) ms for the first request (connecting included)")
        report.line("API", "SCIM 2.0 (/ServiceProviderConfig answered)")
        guard let tokens else {
            report.fail("Token", "none given", fix: "Give one with --token, ROSTER_TOKEN, tokenFile or tokenCommand.")
            return
        }
        do {
            let page = try await SCIMDirectory(client: client).listUsers(UserQuery(perPage: 1))
            report.line("Token", "from \(tokens.source.summary): accepted (\(page.total) users)")
        } catch let error as APIError {
            report.fail("Token", "from \(tokens.source.summary): \(error.localizedDescription)", fix: error.recoverySuggestion)
        } catch {
            report.fail("Token", "\(error)", fix: nil)
        }
    }
}

/// The lines `roster --check` prints, and whether any step failed.
struct CheckReport {
    let output: @Sendable (String) -> Void
    private(set) var problems: [(step: String, fix: String?)] = []

    init(output: @escaping @Sendable (String) -> Void) {
        self.output = output
    }

    func line(_ step: String, _ text: String) {
        output(step.padding(toLength: 12, withPad: " ", startingAt: 0) + text)
    }

    mutating func fail(_ step: String, _ text: String, fix: String?) {
        output(step.padding(toLength: 12, withPad: " ", startingAt: 0) + "✗ " + text)
        problems.append((step, fix))
    }

    func finish() -> Int32 {
        guard !problems.isEmpty else {
            output("Result      ✓ all well")
            return 0
        }
        output("Result      ✗ " + problems.map(\.step).joined(separator: ", ") + " failed")
        for problem in problems {
            if let fix = problem.fix { output("Fix         " + fix) }
        }
        return 1
    }
}
