import Foundation
import Logging
import RosterApp
import RosterCSV
import RosterKit
import RosterLDAP
import RosterTUI

/// Everything `roster` runs with, resolved once at start: a flag beats the environment,
/// which beats the chosen profile, which beats the file's top level, which beats the default.
struct Settings: Equatable {
    /// The profile (named connection) these settings come from; nil: the file's top level.
    var profile: String?
    /// The header's colour for this connection.
    var color: Theme.Color?
    /// nil: start the embedded server.
    var server: URL?
    /// Which API the server speaks: found out (`auto`), or fixed.
    var api: DialectChoice = .auto
    /// nil: no token (the embedded server makes its own).
    var token: TokenSource?
    /// A PEM file of certificate authorities trusted besides the system's.
    var caFile: String?
    var pageSize = UserQuery.defaultPerPage
    /// The order the list opens in: the `sort` setting, else an LDAP directory's own order
    /// (docs/ldap.md, "The order a list opens in"), else name ↑.
    var sort = UserSort.default
    var requestTimeout: Duration = .seconds(30)
    var connectTimeout: Duration = .seconds(5)
    var colors: Terminal.ColorMode = .auto
    var mouse = true
    var scrolling = ScrollStyle.halfScreen
    /// What a CSV export (`x`) writes, in order.
    var exportColumns = CSVColumn.defaultSelection
    var logFile: String
    /// Where a changed form is kept when a signal stops the app (always the state directory).
    var draftFile = ""
    var importMappingsFile = ""
    var dialectsFile = ""
    /// The change journal; nil when the settings turn it off.
    var journalFile: String?
    /// Kept this many days, and at most `journalEntries` entries (the oldest go first).
    var journalDays = 90
    var journalEntries = 100_000
    var logLevel: Logger.Level = .info
    var database: String
    var seedUsers = 500
    var demoFaults = 0.0
    /// LDAP servers only (an ldap:// or ldaps:// server): the bind, the password's source, StartTLS, the layout.
    var ldap = LDAPSettings()

    struct Flags {
        var server: String?
        var token: String?
        var config: String?
        var demoFaults: Double?
        var api: String?
        var bindDN: String?
        var profile: String?
    }

    /// The configuration file the flags and environment name, or an empty one.
    static func loadFile(flags: Flags, environment: [String: String]) throws -> SettingsFile {
        let paths = Paths(environment: environment)
        if let path = flags.config { return try SettingsFile.load(from: paths.expand(path)) }
        if FileManager.default.fileExists(atPath: paths.configFile) { return try SettingsFile.load(from: paths.configFile) }
        return SettingsFile()
    }

    static func resolve(flags: Flags, environment: [String: String]) throws -> Settings {
        try resolve(flags: flags, environment: environment, file: loadFile(flags: flags, environment: environment))
    }

    static func resolve(flags: Flags, environment: [String: String], file: SettingsFile) throws -> Settings {
        let paths = Paths(environment: environment)
        let profile = flags.profile ?? environment["ROSTER_PROFILE"].nonEmpty ?? file.defaultProfile
        var connection = file.connection
        if let profile {
            guard let chosen = file.connections[profile] else {
                let known = file.connections.keys.sorted()
                throw SettingsError(known.isEmpty
                    ? "There is no profile “\(profile)”: the configuration file has no connections."
                    : "There is no profile “\(profile)”; known: \(known.joined(separator: ", ")).")
            }
            do { connection = try connection.overridden(by: chosen) } catch { throw SettingsError("profile \(profile): \(error)") }
        }

        var settings = Settings(logFile: file.logFile.map(paths.expand) ?? paths.logFile,
                                database: connection.embedded?.database.map(paths.expand) ?? paths.database)
        settings.profile = profile
        settings.draftFile = paths.draftFile
        settings.importMappingsFile = paths.importMappingsFile
        settings.dialectsFile = paths.dialectsFile
        settings.journalFile = file.journal == false ? nil : paths.journalFile
        if let days = file.journalDays {
            guard days >= 1 else { throw SettingsError("journalDays must be at least 1, not \(days).") }
            settings.journalDays = days
        }
        if let entries = file.journalEntries {
            guard entries >= 100 else { throw SettingsError("journalEntries must be at least 100, not \(entries).") }
            settings.journalEntries = entries
        }
        if let color = connection.color {
            guard let parsed = Theme.Color.named(color) else {
                throw SettingsError("color must be one of \(Theme.Color.names.joined(separator: ", ")), not “\(color)”.")
            }
            settings.color = parsed
        }

        if let text = flags.server ?? environment["ROSTER_SERVER"].nonEmpty ?? connection.server {
            settings.server = try serverURL(text)
        }
        if let text = flags.api ?? environment["ROSTER_API"].nonEmpty ?? connection.api {
            guard let choice = DialectChoice(rawValue: text) else {
                throw SettingsError("api must be one of auto, roster, scim, not “\(text)”.")
            }
            settings.api = choice
        }
        if let server = settings.server, LDAPConfiguration.isLDAPURL(server), settings.api != .auto {
            throw SettingsError("--api \(settings.api.rawValue) names an HTTP API; an ldap:// or ldaps:// server is LDAP (leave --api out).")
        }
        settings.token = try tokenSource(flags: flags, environment: environment, file: connection, paths: paths)
        settings.ldap = try LDAPSettings.resolve(flags: flags, environment: environment, connection: connection, paths: paths)
        if let caFile = connection.caFile {
            let path = paths.expand(caFile)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw SettingsError("caFile \(path) cannot be read.")
            }
            settings.caFile = path
        }
        if let pageSize = connection.pageSize {
            guard UserQuery.perPageRange.contains(pageSize) else {
                throw SettingsError("pageSize must be between 1 and 200, not \(pageSize).")
            }
            settings.pageSize = pageSize
        }
        if let text = connection.sort {
            guard let sort = UserSort(rawValue: text) else {
                throw SettingsError("sort must be one of \(UserSort.allCases.map(\.rawValue).joined(separator: ", ")), not “\(text)”.")
            }
            settings.sort = sort
        } else if let server = settings.server, LDAPConfiguration.isLDAPURL(server) {
            settings.sort = .directory
        }
        if let seconds = connection.requestTimeoutSeconds {
            guard seconds > 0 else { throw SettingsError("requestTimeoutSeconds must be above 0.") }
            settings.requestTimeout = .milliseconds(Int(seconds * 1000))
        }
        if let seconds = connection.connectTimeoutSeconds {
            guard seconds > 0 else { throw SettingsError("connectTimeoutSeconds must be above 0.") }
            settings.connectTimeout = .milliseconds(Int(seconds * 1000))
        }
        if let colors = file.colors {
            guard let mode = Terminal.ColorMode(rawValue: colors) else {
                throw SettingsError("colors must be one of auto, always, never, not “\(colors)”.")
            }
            settings.colors = mode
        }
        if let mouse = file.mouse { settings.mouse = mouse }
        if let scrolling = file.scrolling {
            guard let style = ScrollStyle(rawValue: scrolling) else {
                throw SettingsError("scrolling must be one of \(ScrollStyle.allCases.map(\.rawValue).joined(separator: ", ")), not “\(scrolling)”.")
            }
            settings.scrolling = style
        }
        if let names = file.exportColumns {
            do { settings.exportColumns = try CSVColumn.parse(names) } catch { throw SettingsError(error.description) }
        }
        if let level = file.logLevel {
            guard let parsed = Logger.Level(rawValue: level) else {
                throw SettingsError("logLevel must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            settings.logLevel = parsed
        }
        if let seed = connection.embedded?.seedUsers { settings.seedUsers = max(0, seed) }
        if let faults = flags.demoFaults ?? connection.embedded?.demoFaults {
            guard (0...1).contains(faults) else { throw SettingsError("--demo-faults must be between 0 and 1, not \(faults).") }
            settings.demoFaults = faults
        }
        return settings
    }

    /// The transport's options: these settings plus the proxies the environment names.
    func transportOptions(environment: [String: String]) throws(APIError) -> TransportOptions {
        TransportOptions(
            connectTimeout: connectTimeout, requestTimeout: requestTimeout, caFile: caFile,
            proxies: try ProxySettings.from(environment: environment))
    }

    static func serverURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "ldap", "ldaps"].contains(scheme),
              url.host != nil else {
            throw SettingsError("“\(text)” is not a server URL; give one like http://host:8080/ or ldaps://ldap.example.com.")
        }
        return url
    }

    /// The first of --token, ROSTER_TOKEN, the file's token, tokenFile and tokenCommand. Only
    /// one of the file's three may be set: two would leave a reader guessing which one wins.
    private static func tokenSource(
        flags: Flags, environment: [String: String], file: ConnectionSettings, paths: Paths
    ) throws -> TokenSource? {
        if let token = flags.token { return .literal(token, origin: "--token") }
        if let token = environment["ROSTER_TOKEN"].nonEmpty { return .literal(token, origin: "ROSTER_TOKEN") }
        let given = [file.token != nil, file.tokenFile != nil, file.tokenCommand != nil].filter { $0 }.count
        guard given <= 1 else {
            throw SettingsError("Set only one of token, tokenFile and tokenCommand in the configuration file.")
        }
        if let token = file.token { return .literal(token, origin: "token in the configuration file") }
        if let tokenFile = file.tokenFile {
            let path = paths.expand(tokenFile)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw SettingsError("Cannot read a token from \(path).")
            }
            // Read once now, through the reader every later read goes through, so a file others
            // can read is refused before anything starts.
            do { _ = try TokenProvider.firstLine(of: path) } catch { throw SettingsError(error.localizedDescription) }
            return .file(path: path)
        }
        if let command = file.tokenCommand {
            guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw SettingsError("tokenCommand is empty.")
            }
            return .command(command)
        }
        return nil
    }
}

extension Optional where Wrapped == String {
    /// nil for an unset or empty environment variable.
    var nonEmpty: String? {
        switch self {
        case .some(let value) where !value.isEmpty: value
        default: nil
        }
    }
}
