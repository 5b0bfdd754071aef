import Foundation
import RosterKit
import RosterKitTestSupport
import RosterServer
import NIOConcurrencyHelpers
import Testing
@testable import roster

/// `roster --check` against real servers: what it prints and how it exits.
@Suite("roster --check")
struct ConnectionCheckTests {
    final class Lines: Sendable {
        let lines = NIOLockedValueBox<[String]>([])
        var text: String { lines.withLockedValue { $0.joined(separator: "\n") } }
    }

    func check(_ settings: Settings) async -> (code: Int32, text: String) {
        let lines = Lines()
        let code = await ConnectionCheck(settings: settings, environment: [:]) { line in lines.lines.withLockedValue { $0.append(line) } }.run()
        return (code, lines.text)
    }

    func settings(server: URL, token: TokenSource?) -> Settings {
        var settings = Settings(logFile: "/dev/null", database: "/nonexistent/unused.sqlite")
        settings.server = server
        settings.token = token
        // No test here judges the timeout; under the whole suite, tokenCommand's process and
        // the first request took longer than 5 s in a run.
        settings.requestTimeout = Duration.seconds(60).scaledForTests
        return settings
    }

    func withServer(_ body: (RunningServer) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await UserAPIServer.start(ServerConfiguration(
            databasePath: folder.appendingPathComponent("db.sqlite").path, token: "right-token", seedCount: 3))
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test func aGoodServerAndTokenIsAllWell() async throws {
        try await withServer { server in
            let (code, text) = await check(settings(server: server.url, token: .literal("right-token", origin: "--token")))
            #expect(code == 0, "\(text)")
            #expect(text.contains("Proxy       none"))
            #expect(text.contains("Round trip  "))
            #expect(text.contains("API         Roster API"))
            #expect(text.contains("Token       from --token: accepted (3 users)"))
            #expect(text.contains("Result      ✓ all well"))
            #expect(!text.contains("right-token"), "the token is never printed")
        }
    }

    @Test func aWrongTokenFailsWithTheFix() async throws {
        try await withServer { server in
            let (code, text) = await check(settings(server: server.url, token: .command("echo wrong-token")))
            #expect(code == 1)
            #expect(text.contains("Token       ✗ from tokenCommand: refused (401)"))
            #expect(text.contains("Fix         Give a valid token"))
            #expect(!text.contains("wrong-token"))
        }
    }

    @Test func aDeadPortFailsAtTheRoundTrip() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let (code, text) = await check(settings(server: refusing.url, token: .literal("t", origin: "--token")))
        #expect(code == 1)
        #expect(text.contains("Round trip  ✗ Could not connect to the server at 127.0.0.1:\(port)."))
        #expect(text.contains("Fix         Check that the server is running"))
        withExtendedLifetime(refusing) {}
    }

    @Test func aSelfSignedCertificateIsShownAndTheFixNamesCaFile() async throws {
        let certificate = try SelfSignedCertificate.make()
        defer { certificate.remove() }
        let server = try await TLSListener.start(certificate: certificate, response: TransportTestsResponse.ok)
        let (code, text) = await check(settings(server: URL(string: "https://127.0.0.1:\(server.port)")!, token: nil))
        await server.close()
        #expect(code == 1)
        #expect(text.contains("TLS         ✗ TLS 1."), "\(text)")
        #expect(text.contains("CN=\(SelfSignedCertificate.hostName)"))
        #expect(text.contains("not trusted"))
        #expect(text.contains("caFile"))
    }
}

extension ConnectionCheckTests {
    @Test func rosterServerOverTLSIsTrustedWithCaFileAndShowsItsCertificate() async throws {
        let certificate = try SelfSignedCertificate.make()
        defer { certificate.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: certificate.keyPath)
        let server = try await UserAPIServer.start(ServerConfiguration(
            databasePath: certificate.directory.appendingPathComponent("db.sqlite").path, token: "right-token", seedCount: 2,
            tls: TLSFiles(certificatePath: certificate.certificatePath, keyPath: certificate.keyPath)))
        var trusting = settings(server: server.url, token: .literal("right-token", origin: "--token"))
        trusting.caFile = certificate.certificatePath
        let (code, text) = await check(trusting)
        let (untrustedCode, untrusted) = await check(settings(server: server.url, token: .literal("right-token", origin: "--token")))
        await server.shutdown()
        #expect(code == 0, "\(text)")
        #expect(text.contains("CN=\(SelfSignedCertificate.hostName)") && text.contains("; trusted"), "\(text)")
        #expect(text.contains("Token       from --token: accepted (2 users)"), "\(text)")
        #expect(untrustedCode == 1)
        #expect(untrusted.contains("not trusted") && untrusted.contains("caFile"), "\(untrusted)")
    }
}

enum TransportTestsResponse {
    static let ok = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

}

/// SCIM services and every profile at once.
extension ConnectionCheckTests {
    @Test func aSCIMServiceIsCheckedInSCIMsWords() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        try await peer.seed(3, bulk: true)
        var found = settings(server: peer.url, token: .literal(SCIMPeer.token, origin: "--token"))
        let (code, text) = await check(found) // api auto: found by the app's probe
        #expect(code == 0, "\(text)")
        #expect(text.contains("API         SCIM 2.0"), "\(text)")
        #expect(text.contains("Token       from --token: accepted (3 users)"), "\(text)")
        found.api = .scim
        found.token = .literal("wrong-token", origin: "--token")
        let refused = await check(found)
        #expect(refused.code == 1)
        #expect(refused.text.contains("Token       ✗ from --token: "), "\(refused.text)")
        #expect(!refused.text.contains("wrong-token"))
    }

    @Test func checkAllPrintsALineAProfileThenWhatFailed() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        try await peer.seed(2, bulk: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-check-all-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/roster.json"
        try """
            { connections: {
                local: { server: null, embedded: { database: "\(folder)/local.sqlite", seedUsers: 2 } },
                scim: { server: "\(peer.url.absoluteString)", api: "scim", token: "\(SCIMPeer.token)" },
                down: { server: "http://127.0.0.1:9/", token: "t" },
            } }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["HOME": folder, "XDG_STATE_HOME": folder + "/state", "XDG_DATA_HOME": folder + "/data"]
        let lines = Lines()
        let code = await Profiles(file: try SettingsFile.load(from: config), flags: Settings.Flags(config: config), environment: environment)
            .checkAll { line in lines.lines.withLockedValue { $0.append(line) } }
        let printed = lines.lines.withLockedValue { $0 }
        #expect(code == 1)
        #expect(printed[0].hasPrefix("down   ✗ Round trip failed  http://127.0.0.1:9/"), "\(printed)")
        #expect(printed[1].hasPrefix("local  ✓ all well  embedded server"), "\(printed)")
        #expect(printed[2].hasPrefix("scim   ✓ all well  \(peer.url.absoluteString)"), "\(printed)")
        #expect(printed.contains("── down") && !printed.contains("── local") && !printed.contains("── scim"))
        #expect(!printed.joined().contains(SCIMPeer.token))
    }
}
