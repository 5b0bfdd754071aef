import ArgumentParser
import Foundation
import Logging
import RosterKit

@main
struct RosterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roster",
        abstract: "Browse and edit a user directory in the terminal.",
        discussion: """
            With no server named, Roster starts its own user API server in-process on 127.0.0.1, \
            with its data in $XDG_DATA_HOME/roster/roster.sqlite (500 demo users on first run).

            Settings: a flag beats an environment variable (ROSTER_SERVER, ROSTER_TOKEN, NO_COLOR), \
            which beats the configuration file (--config, else $XDG_CONFIG_HOME/roster/roster.json; \
            Config/roster.json in the source tree documents every setting). \
            Logs go to $XDG_STATE_HOME/roster/roster.log, never to the terminal. Press ? in the app for every key.
            """,
        version: RosterVersion.current)

    @Option(name: .long, help: ArgumentHelp(
        "The user API server, e.g. https://users.example.com/roster/, or an LDAP directory, ldaps://host or ldap://host (StartTLS) (env ROSTER_SERVER).",
        valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp(
        "The server's API: auto (find out), roster (Roster API), or scim (SCIM 2.0; give the SCIM base URL, e.g. https://host/scim/v2) (env ROSTER_API).",
        valueName: "auto|roster|scim"))
    var api: String?

    @Option(name: .long, help: ArgumentHelp("The bearer token the server expects (env ROSTER_TOKEN).", valueName: "token"))
    var token: String?

    @Option(name: .customLong("bind-dn"), help: ArgumentHelp(
        "For an ldap:// or ldaps:// server: the DN (or, for Active Directory, user@domain) to bind as; the password comes from ROSTER_PASSWORD, passwordFile, passwordCommand or a prompt (env ROSTER_BIND_DN).",
        valueName: "dn"))
    var bindDN: String?

    @Option(name: .long, help: ArgumentHelp("A configuration file (JSON with comments).", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: ArgumentHelp(
        "Check the connection without starting the UI: address, proxy, TLS, round trip, API and token. Exit 0 when all is well."))
    var check = false

    @Option(name: .customLong("demo-faults"), help: ArgumentHelp(
        "Make the embedded server fail this share (0 to 1) of requests with 503, to see the error dialog.", valueName: "rate"))
    var demoFaults: Double?

    mutating func run() async throws {
        let settings: Settings
        do {
            settings = try Settings.resolve(
                flags: Settings.Flags(server: server, token: token, config: config, demoFaults: demoFaults, api: api, bindDN: bindDN),
                environment: ProcessInfo.processInfo.environment)
        } catch let error as SettingsError {
            throw ValidationError(error.message)
        }
        if settings.server != nil && demoFaults != nil {
            throw ValidationError("--demo-faults applies to the embedded server only; leave out --server to use it.")
        }
        if check {
            let code = await ConnectionCheck(settings: settings, environment: ProcessInfo.processInfo.environment) { print($0) }.run()
            if code != 0 { throw ExitCode(code) }
            return
        }
        let exitCode = try await Launcher(settings: settings).run()
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
