import Foundation
import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import roster

/// How `roster` resolves its settings: flags beat the environment, which beats the file, which
/// beats the defaults; a bad file is an error that names the file and the key.
@Suite("Settings")
struct SettingsTests {
    let scratch = TemporaryFolder("settings")
    var folder: String { scratch.path }
    let environment: [String: String]

    init() throws {
        let folder = scratch.path
        try FileManager.default.createDirectory(atPath: folder + "/config/roster", withIntermediateDirectories: true)
        environment = ["HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data",
                       "XDG_STATE_HOME": folder + "/state"]
    }

    func writeConfig(_ text: String, to path: String? = nil) throws -> String {
        let path = path ?? folder + "/config/roster/roster.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func resolve(_ flags: Settings.Flags = Settings.Flags(), environment extra: [String: String] = [:]) throws -> Settings {
        try Settings.resolve(flags: flags, environment: environment.merging(extra) { _, new in new })
    }

    @Test func withNothingSetTheEmbeddedServerAndXDGPathsAreUsed() throws {
        let settings = try resolve()
        #expect(settings.server == nil)
        #expect(settings.pageSize == 50)
        #expect(settings.scrolling == .halfScreen)
        #expect(settings.database == folder + "/data/roster/roster.sqlite")
        #expect(settings.logFile == folder + "/state/roster/roster.log")
        #expect(settings.draftFile == folder + "/state/roster/draft.json")
        #expect(settings.seedUsers == 500)
    }

    @Test func aFlagBeatsTheEnvironmentWhichBeatsTheFile() throws {
        _ = try writeConfig(#"{ "server": "http://file.example:1/", "token": "from-file" }"#)
        let env = ["ROSTER_SERVER": "http://env.example:2/", "ROSTER_TOKEN": "from-env"]
        let flagged = try resolve(Settings.Flags(server: "https://flag.example/roster/", token: "from-flag"), environment: env)
        #expect(flagged.server?.absoluteString == "https://flag.example/roster/")
        #expect(flagged.token == .literal("from-flag", origin: "--token"))
        let fromEnvironment = try resolve(environment: env)
        #expect(fromEnvironment.server?.absoluteString == "http://env.example:2/")
        #expect(fromEnvironment.token == .literal("from-env", origin: "ROSTER_TOKEN"))
        let fromFile = try resolve(environment: ["ROSTER_SERVER": "", "ROSTER_TOKEN": ""])
        #expect(fromFile.server?.absoluteString == "http://file.example:1/", "an empty variable counts as unset")
        #expect(fromFile.token == .literal("from-file", origin: "token in the configuration file"))
    }

    @Test func aTokenFileIsNamedWithItsPathExpanded() throws {
        try "s3cret-token\nignored\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        chmod(folder + "/token", 0o600)
        _ = try writeConfig(#"{ "tokenFile": "~/token" }"#)
        #expect(try resolve().token == .file(path: folder + "/token"))
    }

    @Test func aTokenFileOthersCanReadIsRefusedWithTheCommandToFixIt() throws {
        let path = folder + "/token"
        try "s3cret-token\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        _ = try writeConfig(#"{ "tokenFile": "~/token" }"#)
        let error = try #require(throws: SettingsError.self) { try resolve() }
        #expect(error.message.contains("can be read by others (mode 644)"), "\(error.message)")
        #expect(error.message.contains("chmod 600 \(path)"))
        #expect(!error.message.contains("s3cret"))
        // The reader every later read (a refresh after a 401) goes through refuses it too.
        #expect(throws: APIError.self) { try TokenProvider.firstLine(of: path) }
        chmod(path, 0o600)
        #expect(try TokenProvider.firstLine(of: path) == "s3cret-token")
    }

    @Test func aTokenCommandIsKeptToRunLater() throws {
        _ = try writeConfig(#"{ "tokenCommand": "pass show roster" }"#)
        let settings = try resolve()
        #expect(settings.token == .command("pass show roster"))
        #expect(settings.token?.summary == "tokenCommand", "the command itself is never shown")
    }

    @Test func onlyOneTokenSettingMayBeInTheFile() throws {
        _ = try writeConfig(#"{ "token": "a", "tokenCommand": "echo b" }"#)
        let error = try #require(throws: SettingsError.self) { try resolve() }
        #expect(error.message.contains("only one of token, tokenFile and tokenCommand"))
    }

    @Test func transportSettingsAndProxiesFromTheEnvironment() throws {
        let caFile = folder + "/ca.pem"
        try "not checked here".write(toFile: caFile, atomically: true, encoding: .utf8)
        _ = try writeConfig(#"{ "connectTimeoutSeconds": 1.5, "caFile": "~/ca.pem" }"#)
        let settings = try resolve()
        #expect(settings.connectTimeout == .milliseconds(1500))
        #expect(settings.caFile == caFile)
        let options = try settings.transportOptions(environment: ["HTTPS_PROXY": "http://proxy.example:3128", "NO_PROXY": "internal.example"])
        #expect(options.proxies.https == ProxySettings.Proxy(host: "proxy.example", port: 3128))
        #expect(options.connectTimeout == .milliseconds(1500))
        #expect(options.caFile == caFile)
        #expect(throws: APIError.self) { try settings.transportOptions(environment: ["HTTPS_PROXY": "socks5://p:1"]) }
    }

    @Test func commentsAreAllowedAndEverySettingIsRead() throws {
        _ = try writeConfig("""
            // a comment
            { "pageSize": 120, /* inline */ "colors": "never", "mouse": false, "scrolling": "line",
              "exportColumns": ["email", "Name", "updated_at"],
              "requestTimeoutSeconds": 2.5, "logLevel": "debug",
              "embedded": { "database": "~/db.sqlite", "seedUsers": 7, "demoFaults": 0.25 } }
            """)
        let settings = try resolve()
        #expect(settings.pageSize == 120)
        #expect(settings.colors == .never)
        #expect(!settings.mouse)
        #expect(settings.scrolling == .line)
        #expect(settings.exportColumns == [.email, .name, .updatedAt])
        #expect(settings.requestTimeout == .milliseconds(2500))
        #expect(settings.logLevel == .debug)
        #expect(settings.database == folder + "/db.sqlite")
        #expect(settings.seedUsers == 7)
        #expect(settings.demoFaults == 0.25)
        #expect(try resolve(Settings.Flags(demoFaults: 1)).demoFaults == 1, "--demo-faults beats the file")
    }

    @Test(arguments: [
        (#"{ "pageSiz": 10 }"#, ":1:3: “pageSiz” is not a setting; did you mean “pageSize”?"),
        (#"{ "embedded": { "seed": 1 } }"#, "“seed” is not a setting in “embedded”"),
        (#"{ "scrolling": "smooth" }"#, "scrolling must be one of line, half-screen"),
        (#"{ "pageSize": 0 }"#, "pageSize must be between 1 and 200"),
        (#"{ "colors": 1 }"#, ":1:13: “colors” has the wrong type: expected a string in quotes"),
        (#"{ "server": "ftp://x/" }"#, "is not a server URL"),
        (#"{ "pageSize": 10"#, ":1:17: expected , or } after the value of “pageSize”, not the end of the file"),
        (#"{ "exportColumns": ["email", "phone"] }"#, "exportColumns: “phone” is not a column"),
        (#"{ "exportColumns": [] }"#, "exportColumns must name at least one column"),
        (#"{ "connectTimeoutSeconds": 0 }"#, "connectTimeoutSeconds must be above 0"),
        (#"{ "caFile": "/nonexistent/ca.pem" }"#, "caFile /nonexistent/ca.pem cannot be read"),
        (#"{ "tokenFile": "/nonexistent/token" }"#, "Cannot read a token from /nonexistent/token"),
    ])
    func aBadFileIsAnErrorThatSaysWhatIsWrong(text: String, expected: String) throws {
        let path = try writeConfig(text, to: folder + "/bad.json")
        let error = try #require(throws: SettingsError.self) { try resolve(Settings.Flags(config: path)) }
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test func theDocumentedConfigurationIsValidAndStatesTheDefaults() throws {
        let documented = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Config/roster.json").path
        let fromDocument = try resolve(Settings.Flags(config: documented))
        #expect(fromDocument == (try resolve()), "Config/roster.json shows every default as it is")
        let text = try String(contentsOfFile: documented, encoding: .utf8)
        for key in SettingsFile.topLevelKeys + ConnectionSettings.Embedded.CodingKeys.allCases.map(\.rawValue) {
            #expect(text.contains("\"\(key)\""), "Config/roster.json documents \(key)")
        }
    }
}
