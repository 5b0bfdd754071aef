import Foundation
import RosterKitTestSupport
import Testing
@testable import roster

/// Named connections: a flag beats the environment, which beats the profile, which beats the
/// file's top level; the profile comes from --profile, else ROSTER_PROFILE, else "default".
@Suite("Profiles")
struct ProfileTests {
    let scratch = TemporaryFolder("profiles")
    var folder: String { scratch.path }
    let environment: [String: String]
    let config: String

    init() throws {
        let folder = scratch.path
        environment = ["HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data",
                       "XDG_STATE_HOME": folder + "/state"]
        config = folder + "/roster.json"
        try """
            {
              "pageSize": 30,
              "requestTimeoutSeconds": 9,
              "token": "top-level-token",
              "default": "staging",
              "connections": {
                "prod": { "server": "https://prod.example/scim/v2", "api": "scim", "tokenCommand": "pass show prod", "color": "red", "pageSize": 100 },
                "staging": { "server": "http://staging.example:8080/" },
                "local": { "server": null, "embedded": { "database": "~/local.sqlite", "seedUsers": 3 } },
              },
            }
            """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    func resolve(_ flags: Settings.Flags = Settings.Flags(), environment extra: [String: String] = [:]) throws -> Settings {
        var flags = flags
        flags.config = config
        return try Settings.resolve(flags: flags, environment: environment.merging(extra) { _, new in new })
    }

    @Test func theDefaultProfileOverridesTheTopLevel() throws {
        let settings = try resolve()
        #expect(settings.profile == "staging")
        #expect(settings.server?.absoluteString == "http://staging.example:8080/")
        #expect(settings.pageSize == 30, "a key the profile leaves out comes from the top level")
        #expect(settings.requestTimeout == .seconds(9))
        #expect(settings.token == .literal("top-level-token", origin: "token in the configuration file"))
    }

    @Test func resolutionOrderIsFlagThenEnvironmentThenProfileThenTopLevel() throws {
        let fromEnvironment = try resolve(environment: ["ROSTER_PROFILE": "prod"])
        #expect(fromEnvironment.profile == "prod")
        #expect(fromEnvironment.server?.absoluteString == "https://prod.example/scim/v2")
        #expect(fromEnvironment.api == .scim)
        #expect(fromEnvironment.pageSize == 100, "the profile beats the top level")
        #expect(fromEnvironment.token == .command("pass show prod"), "a profile's token source replaces the top level's")
        #expect(fromEnvironment.color == .red)

        let fromFlag = try resolve(Settings.Flags(profile: "local"), environment: ["ROSTER_PROFILE": "prod"])
        #expect(fromFlag.profile == "local", "--profile beats ROSTER_PROFILE")
        #expect(fromFlag.server == nil, "null in a profile clears the top level's server: the embedded one")
        #expect(fromFlag.database == folder + "/local.sqlite")
        #expect(fromFlag.seedUsers == 3)

        let serverFlag = try resolve(Settings.Flags(server: "http://flag.example/", token: "t", profile: "prod"),
                                     environment: ["ROSTER_SERVER": "http://env.example/"])
        #expect(serverFlag.server?.absoluteString == "http://flag.example/", "a flag beats the profile")
        #expect(serverFlag.token == .literal("t", origin: "--token"))
        let serverVariable = try resolve(Settings.Flags(profile: "prod"), environment: ["ROSTER_SERVER": "http://env.example/"])
        #expect(serverVariable.server?.absoluteString == "http://env.example/", "the environment beats the profile")
    }

    @Test func anUnknownProfileListsTheKnownOnes() throws {
        let error = try #require(throws: SettingsError.self) { try resolve(Settings.Flags(profile: "prd")) }
        #expect(error.message == "There is no profile “prd”; known: local, prod, staging.")
    }

    @Test func aBadKeyInAProfileIsAnErrorWithItsPlace() throws {
        try #"{ "connections": { "a": { "sever": "http://x/" } } }"#.write(toFile: config, atomically: true, encoding: .utf8)
        let error = try #require(throws: SettingsError.self) { try resolve() }
        #expect(error.message.hasSuffix(":1:27: “sever” is not a setting in “connections.a”; did you mean “server”?"), "\(error.message)")
    }

    @Test func theListingShowsServerAndAPIButNoSecret() throws {
        let file = try SettingsFile.load(from: config)
        let lines = Profiles(file: file, flags: Settings.Flags(config: config), environment: environment).listing()
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("  local    embedded server (\(folder)/local.sqlite)"))
        #expect(lines[1] == "  prod     https://prod.example/scim/v2  api scim")
        #expect(lines[2] == "* staging  http://staging.example:8080/  api auto")
        #expect(!lines.joined().contains("top-level-token") && !lines.joined().contains("pass show"))
    }
}
