import Foundation
import Logging
import RosterKit
import RosterLDAP

/// What `roster` needs for an LDAP server beyond the URL: the bind DN (`--bind-dn`,
/// ROSTER_BIND_DN, `bindDN`), where the password comes from (ROSTER_PASSWORD, `passwordFile`,
/// `passwordCommand`, else a prompt with echo off), StartTLS and the layout (`ldap`). Never a
/// password on the command line.
struct LDAPSettings: Equatable {
    var bindDN: String?
    /// nil: ask at start (when there is a bind DN).
    var password: TokenSource?
    var startTLS = true
    var schema = LDAPSchemaSettings()

    static func resolve(flags: Settings.Flags, environment: [String: String], connection file: ConnectionSettings, paths: Paths) throws -> LDAPSettings {
        var settings = LDAPSettings()
        settings.bindDN = flags.bindDN ?? environment["ROSTER_BIND_DN"].nonEmpty ?? file.bindDN
        settings.startTLS = file.startTLS ?? true
        settings.schema = file.ldap?.schema ?? LDAPSchemaSettings()
        guard file.passwordFile == nil || file.passwordCommand == nil else {
            throw SettingsError("Set only one of passwordFile and passwordCommand in the configuration file.")
        }
        if let password = environment["ROSTER_PASSWORD"].nonEmpty {
            settings.password = .literal(password, origin: "ROSTER_PASSWORD")
        } else if let passwordFile = file.passwordFile {
            // Read (and its permissions checked) by TokenProvider, as tokenFile is.
            settings.password = .file(path: paths.expand(passwordFile))
        } else if let command = file.passwordCommand {
            guard !command.trimmingCharacters(in: .whitespaces).isEmpty else { throw SettingsError("passwordCommand is empty.") }
            settings.password = .command(command)
        }
        return settings
    }

    /// The directory's configuration for `url`, asking for the password now when no source
    /// gives it and a bind DN is set.
    func configuration(url: URL, caFile: String?, connectTimeout: Duration, logger: Logger,
                       prompt: (() throws -> String)? = nil) throws -> LDAPConfiguration {
        var source = password
        if source == nil, let bindDN, !bindDN.isEmpty {
            let typed = try prompt?() ?? PasswordPrompt.read("Password for \(bindDN) on \(url.host ?? "the server"): ")
            source = .literal(typed, origin: "the prompt")
        }
        return LDAPConfiguration(url: url, bindDN: bindDN ?? "", password: source.map(TokenProvider.init), startTLS: startTLS,
                                 caFile: caFile, schema: schema, connectTimeout: connectTimeout, logger: logger)
    }
}

/// The settings file's `ldap` object: `LDAPSchemaSettings`, with an unknown key an error (a
/// typo such as "peopleBse" would otherwise be ignored).
struct LDAPSection: Codable, Equatable {
    var schema: LDAPSchemaSettings

    static let keys = ["peopleBase", "groupsBase", "personClass", "newPersonClasses", "groupClass", "nameAttribute",
                       "loginAttribute", "emailAttribute", "rdnAttribute", "titleAttribute", "departmentAttribute",
                       "employeeNumberAttribute"]

    init(from decoder: any Decoder) throws {
        try SettingsFile.rejectUnknownKeys(in: decoder, known: Self.keys)
        schema = try LDAPSchemaSettings(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try schema.encode(to: encoder)
    }
}
