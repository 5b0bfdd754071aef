import Foundation
import RosterKit
import RosterLDAP
import RosterKitTestSupport
import Testing
@testable import roster

/// `roster` with an ldap:// or ldaps:// server: the settings that reach the directory, and
/// `roster --check` against a real slapd.
@Suite("roster with an LDAP server", .serialized)
struct LDAPCommandTests {
    let scratch = TemporaryFolder("ldap-settings")
    var folder: String { scratch.path }

    func resolve(_ flags: Settings.Flags, config: String? = nil, environment: [String: String] = [:]) throws -> Settings {
        try FileManager.default.createDirectory(atPath: folder + "/config/roster", withIntermediateDirectories: true)
        if let config { try config.write(toFile: folder + "/config/roster/roster.json", atomically: true, encoding: .utf8) }
        let base = ["HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data", "XDG_STATE_HOME": folder + "/state"]
        return try Settings.resolve(flags: flags, environment: base.merging(environment) { _, new in new })
    }

    @Test func theBindDNAndPasswordComeFromTheFlagTheEnvironmentOrTheFile() throws {
        let config = #"{"bindDN": "cn=file", "passwordCommand": "pass show ldap", "startTLS": false, "ldap": {"peopleBase": "ou=staff,dc=x", "loginAttribute": "cn"}}"#
        var settings = try resolve(Settings.Flags(server: "ldap://ldap.example.org", bindDN: "cn=flag"), config: config)
        #expect(settings.server?.absoluteString == "ldap://ldap.example.org")
        #expect(settings.ldap.bindDN == "cn=flag")
        #expect(settings.ldap.password == .command("pass show ldap"))
        #expect(settings.ldap.startTLS == false)
        #expect(settings.ldap.schema == LDAPSchemaSettings(peopleBase: "ou=staff,dc=x", loginAttribute: "cn"))
        settings = try resolve(Settings.Flags(server: "ldaps://ldap.example.org"), config: config,
                               environment: ["ROSTER_BIND_DN": "cn=env", "ROSTER_PASSWORD": "from-env"])
        #expect(settings.ldap.bindDN == "cn=env")
        #expect(settings.ldap.password == .literal("from-env", origin: "ROSTER_PASSWORD"))
        #expect(throws: SettingsError.self) { try resolve(Settings.Flags(server: "ldap://h", api: "scim")) }
        #expect(throws: SettingsError.self) { try resolve(Settings.Flags(server: "ldap://h"), config: #"{"passwordFile": "a", "passwordCommand": "b"}"#) }
        let typo = try #require(throws: SettingsError.self) { try resolve(Settings.Flags(server: "ldap://h"), config: #"{"ldap": {"peopleBse": "x"}}"#) }
        #expect(typo.message.contains("“peopleBse” is not a setting in “ldap”; did you mean “peopleBase”?"), "\(typo.message)")
    }

    @Test func aProfileCanBeAnLDAPDirectoryAndItsPasswordSourceReplacesTheTopLevels() throws {
        let config = #"""
            { "passwordCommand": "pass show top",
              "connections": { "office": { "server": "ldaps://dc.example.org", "bindDN": "admin@example.org",
                                           "passwordFile": "~/ad-password", "ldap": { "peopleBase": "ou=People,dc=example,dc=org" } } } }
            """#
        let settings = try resolve(Settings.Flags(profile: "office"), config: config)
        #expect(settings.server?.absoluteString == "ldaps://dc.example.org")
        #expect(settings.ldap.bindDN == "admin@example.org")
        #expect(settings.ldap.password == .file(path: folder + "/ad-password"))
        #expect(settings.ldap.schema.peopleBase == "ou=People,dc=example,dc=org")
    }

    @Test func anLDAPListOpensInTheDirectorysOrderUnlessTheSortSettingSaysOtherwisePerProfile() throws {
        let config = #"""
            { "sort": "email",
              "connections": { "big": { "server": "ldaps://dc.example.org", "sort": null },
                               "small": { "server": "ldap://ldap.example.org", "sort": "-name" },
                               "lab": { "server": "ldap://ldap.example.org" },
                               "hr": { "server": "https://hr.example.org/scim/v2", "sort": null } } }
            """#
        #expect(try resolve(Settings.Flags(server: "ldap://h")).sort == .directory, "LDAP: the directory's own order")
        #expect(try resolve(Settings.Flags(server: "https://h")).sort == .name, "the Roster API and SCIM: name ↑, as before")
        #expect(try resolve(Settings.Flags()).sort == .name, "the embedded server")
        #expect(try resolve(Settings.Flags(profile: "big"), config: config).sort == .directory, "null clears the top level's")
        #expect(try resolve(Settings.Flags(profile: "small"), config: config).sort == .nameDescending, "the profile's")
        #expect(try resolve(Settings.Flags(profile: "lab"), config: config).sort == .email, "the top level's")
        #expect(try resolve(Settings.Flags(profile: "hr"), config: config).sort == .name)
        #expect(try resolve(Settings.Flags(server: "https://h"), config: #"{"sort": "directory"}"#).sort == .directory)
        let bad = try #require(throws: SettingsError.self) { try resolve(Settings.Flags(server: "ldap://h"), config: #"{"sort": "surname"}"#) }
        #expect(bad.message == "sort must be one of directory, name, -name, email, -email, created_at, -created_at, not “surname”.")
    }

    @Test func withoutAPasswordSourceThePromptIsAsked() throws {
        let settings = try resolve(Settings.Flags(server: "ldap://h", bindDN: "cn=admin"))
        let configuration = try settings.ldap.configuration(url: settings.server!, caFile: nil, connectTimeout: .seconds(1),
                                                            logger: .init(label: "test"), prompt: { "typed" })
        #expect(configuration.password?.source == .literal("typed", origin: "the prompt"))
    }

    func check(_ settings: Settings) async -> (code: Int32, text: String) {
        let lines = ConnectionCheckTests.Lines()
        let code = await ConnectionCheck(settings: settings, environment: [:]) { line in lines.lines.withLockedValue { $0.append(line) } }.run()
        return (code, lines.text)
    }

    @Test func checkWalksEveryStepAgainstSlapd() async throws {
        let server = try SlapdServer()
        var settings = Settings(logFile: "/dev/null", database: "/nonexistent/unused.sqlite")
        settings.server = server.url
        settings.caFile = server.caFile
        settings.ldap.bindDN = SlapdServer.adminDN
        settings.ldap.password = .literal(SlapdServer.adminPassword, origin: "ROSTER_PASSWORD")
        var (code, text) = await check(settings)
        #expect(code == 0, "\(text)")
        #expect(text.contains("TLS         StartTLS; certificate trusted"))
        #expect(text.contains("Bind        cn=admin,dc=roster,dc=test (password from ROSTER_PASSWORD): accepted"))
        #expect(text.contains("Server      OpenLDAP; naming contexts dc=roster,dc=test; paged results, server-side sort, password modify"))
        #expect(text.contains("People      300 under dc=roster,dc=test"))
        #expect(!text.contains(SlapdServer.adminPassword))

        settings.ldap.password = .literal("wrong", origin: "ROSTER_PASSWORD")
        (code, text) = await check(settings)
        #expect(code == 1)
        #expect(text.contains("Bind        ✗ The server refused the bind DN or password."))

        settings.caFile = nil
        (code, text) = await check(settings)
        #expect(code == 1)
        #expect(text.contains("TLS         ✗ Could not make a secure connection to 127.0.0.1"), "\(text)")
    }
}
