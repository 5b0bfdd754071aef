import Foundation
import Logging
import RosterKit
import RosterLDAP

struct RosterCommand {
    static let spec = CommandSpec(
        name: "roster",
        abstract: "Browse and edit a user directory in the terminal.",
        discussion: """
            With no server named, Roster starts its own user API server in-process on 127.0.0.1, \
            with its data in $XDG_DATA_HOME/roster/roster.sqlite (500 demo users on first run).

            Settings: a flag beats an environment variable (ROSTER_SERVER, ROSTER_TOKEN, ROSTER_PROFILE, NO_COLOR), \
            which beats the chosen profile, which beats the rest of the configuration file (--config, else $XDG_CONFIG_HOME/roster/roster.json; \
            Config/roster.json in the source tree documents every setting). \
            Logs go to $XDG_STATE_HOME/roster/roster.log, never to the terminal. Press ? in the app for every key.
            """,
        options: [
            .init(name: "server", valueName: "url", help: "The user API server, e.g. https://users.example.com/roster/, or an LDAP directory, ldaps://host or ldap://host (StartTLS) (env ROSTER_SERVER)."),
            .init(name: "api", valueName: "auto|roster|scim", help: "The server's API: auto (find out), roster (Roster API), or scim (SCIM 2.0; give the SCIM base URL, e.g. https://host/scim/v2) (env ROSTER_API)."),
            .init(name: "token", valueName: "token", help: "The bearer token the server expects (env ROSTER_TOKEN)."),
            .init(name: "bind-dn", valueName: "dn", help: "For an ldap:// or ldaps:// server: the DN (or, for Active Directory, user@domain) to bind as; the password comes from ROSTER_PASSWORD, passwordFile, passwordCommand or a prompt (env ROSTER_BIND_DN)."),
            .init(name: "config", valueName: "file", help: "A configuration file (JSON5: comments allowed)."),
            .init(name: "profile", valueName: "name", help: "The named connection to open, from the configuration file's connections (env ROSTER_PROFILE)."),
            .init(name: "list-profiles", help: "Print the configuration file's connections, with server and API, and exit."),
            .init(name: "check", help: "Check the connection without starting the UI: address, proxy, TLS, round trip, API and token. Exit 0 when all is well."),
            .init(name: "all", help: "With --check: check every profile of the configuration file, one line each, then the details of those that fail."),
            .init(name: "demo-faults", valueName: "rate", help: "Make the embedded server fail this share (0 to 1) of requests with 503, to see the error dialog."),
        ],
        subcommands: [JournalCommand.spec, CompareCommand.spec])

    var server: String?
    var api: String?
    var token: String?
    var bindDN: String?
    var config: String?
    var profile: String?
    var listProfiles = false
    var check = false
    var all = false
    var demoFaults: Double?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        server = line.value("server")
        api = line.value("api")
        token = line.value("token")
        bindDN = line.value("bind-dn")
        config = line.value("config")
        profile = line.value("profile")
        listProfiles = line.flag("list-profiles")
        check = line.flag("check")
        all = line.flag("all")
        if let rate = line.value("demo-faults") {
            guard let number = Double(rate) else {
                throw CommandLineError(message: "The value '\(rate.prefix(40))' is invalid for '--demo-faults <rate>'")
            }
            demoFaults = number
        }
    }

    func run() async throws {
        PrivateFiles.restrictNewFiles()
        let flags = Settings.Flags(server: server, token: token, config: config, demoFaults: demoFaults, api: api, bindDN: bindDN, profile: profile)
        let environment = ProcessInfo.processInfo.environment
        if listProfiles {
            do {
                let file = try Settings.loadFile(flags: flags, environment: environment)
                for line in Profiles(file: file, flags: flags, environment: environment).listing() { print(line) }
            } catch let error as SettingsError {
                throw CommandLineError(message: error.message)
            }
            return
        }
        if check && all {
            let code: Int32
            do {
                let file = try Settings.loadFile(flags: flags, environment: environment)
                code = await Profiles(file: file, flags: flags, environment: environment).checkAll { print($0) }
            } catch let error as SettingsError {
                throw CommandLineError(message: error.message)
            }
            if code != 0 { throw ExitStatus(code) }
            return
        }
        if all { throw CommandLineError(message: "--all goes with --check.") }
        // The file is read and decoded once: the settings come from it, and the `C` picker's
        // profiles (decoding it a second time was on the way to the first request).
        let file: SettingsFile
        let settings: Settings
        do {
            file = try Settings.loadFile(flags: flags, environment: environment)
            settings = try Settings.resolve(flags: flags, environment: environment, file: file)
        } catch let error as SettingsError {
            throw CommandLineError(message: error.message)
        }
        // A profile's LDAP server: its library loads while the rest is set up (a no-op when
        // the command line named it and RosterMain started the load).
        if let server = settings.server, LDAPConfiguration.isLDAPURL(server) { LDAPLibrary.preload() }
        if settings.server != nil && demoFaults != nil {
            throw CommandLineError(message: "--demo-faults applies to the embedded server only; leave out --server to use it.")
        }
        if check {
            let code = await ConnectionCheck(settings: settings, environment: environment) { print($0) }.run()
            if code != 0 { throw ExitStatus(code) }
            return
        }
        // The app's LDAP connection and its TLS handshake start now, beside the log, the
        // password and the terminal (the session binds on it).
        if let server = settings.server, LDAPConfiguration.isLDAPURL(server) {
            LDAPConnectAhead.begin(url: server, caFile: settings.caFile, startTLS: settings.ldap.startTLS,
                                   connectTimeout: settings.connectTimeout)
        }
        let kept = PrivateFiles.paths(of: settings, environment: environment)
        let tightened = PrivateFiles.tighten(folders: kept.folders, files: kept.files)
        var launcher = Launcher(settings: settings, notes: tightened)
        launcher.profilesFile = file
        launcher.flags = flags
        let exitCode = try await launcher.run()
        if exitCode != 0 { throw ExitStatus(exitCode) }
    }
}
