import Foundation
import Logging
import RosterApp
import RosterCSV
import RosterKit
import RosterTUI

/// Everything `roster` runs with, resolved once at start: a flag beats the environment,
/// which beats the configuration file, which beats the default.
struct Settings: Equatable {
    /// nil: start the embedded server.
    var server: URL?
    /// Which API the server speaks: found out (`auto`), or fixed.
    var api: DialectChoice = .auto
    /// nil: no token (the embedded server makes its own).
    var token: TokenSource?
    /// A PEM file of certificate authorities trusted besides the system's.
    var caFile: String?
    var pageSize = UserQuery.defaultPerPage
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
    }

    static func resolve(flags: Flags, environment: [String: String]) throws -> Settings {
        let paths = Paths(environment: environment)
        let file: SettingsFile
        if let path = flags.config {
            file = try SettingsFile.load(from: paths.expand(path))
        } else if FileManager.default.fileExists(atPath: paths.configFile) {
            file = try SettingsFile.load(from: paths.configFile)
        } else {
            file = SettingsFile()
        }

        var settings = Settings(logFile: file.logFile.map(paths.expand) ?? paths.logFile,
                                database: file.embedded?.database.map(paths.expand) ?? paths.database)
        settings.draftFile = paths.draftFile

        if let text = flags.server ?? environment["ROSTER_SERVER"].nonEmpty ?? file.server {
            settings.server = try serverURL(text)
        }
        if let text = flags.api ?? environment["ROSTER_API"].nonEmpty ?? file.api {
            guard let choice = DialectChoice(rawValue: text) else {
                throw SettingsError("api must be one of auto, roster, scim, not “\(text)”.")
            }
            settings.api = choice
        }
        if let server = settings.server, LDAPConfiguration.isLDAPURL(server), settings.api != .auto {
            throw SettingsError("--api \(settings.api.rawValue) names an HTTP API; an ldap:// or ldaps:// server is LDAP (leave --api out).")
        }
        settings.token = try tokenSource(flags: flags, environment: environment, file: file, paths: paths)
        settings.ldap = try LDAPSettings.resolve(flags: flags, environment: environment, file: file, paths: paths)
        if let caFile = file.caFile {
            let path = paths.expand(caFile)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw SettingsError("caFile \(path) cannot be read.")
            }
            settings.caFile = path
        }
        if let pageSize = file.pageSize {
            guard UserQuery.perPageRange.contains(pageSize) else {
                throw SettingsError("pageSize must be between 1 and 200, not \(pageSize).")
            }
            settings.pageSize = pageSize
        }
        if let seconds = file.requestTimeoutSeconds {
            guard seconds > 0 else { throw SettingsError("requestTimeoutSeconds must be above 0.") }
            settings.requestTimeout = .milliseconds(Int(seconds * 1000))
        }
        if let seconds = file.connectTimeoutSeconds {
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
        if let seed = file.embedded?.seedUsers { settings.seedUsers = max(0, seed) }
        if let faults = flags.demoFaults ?? file.embedded?.demoFaults {
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
        flags: Flags, environment: [String: String], file: SettingsFile, paths: Paths
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
