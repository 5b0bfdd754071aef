import Foundation
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--tls-cert` and `--tls-key`: HTTPS with a certificate from a throwaway authority made by
/// openssl, trusted through `caFile` only, rotated with SIGHUP while writes run.
@Suite("TLS", .serialized)
struct TLSTests {
    @Test("RosterKit's client connects with caFile, and without it fails with a sentence naming the certificate problem")
    func trustThroughCAFile() async throws {
        let ca = try TestCA.make()
        defer { ca.remove() }
        let files = try ca.issue("server", commonName: "roster-server one")
        let server = try await UserAPIServer.start(ServerConfiguration(
            databasePath: ca.directory.appendingPathComponent("users.sqlite").path, token: "tls-token",
            tls: TLSFiles(certificatePath: files.certificate, keyPath: files.key)))
        defer { Task { await server.shutdown() } }
        #expect(server.url.scheme == "https")

        try await TestTransport.with(TransportOptions(connectTimeout: .seconds(30), caFile: ca.certificatePath)) { transport in
            let users = RosterAPIDirectory(client: APIClient(baseURL: server.url, token: "tls-token", transport: transport, logger: quietLogger))
            let created = try await users.createUser(UserDraft(name: "Over TLS", email: "tls@example.com"))
            #expect(try await users.user(id: created.id).name == "Over TLS")
        }
        try await TestTransport.with(TransportOptions(connectTimeout: .seconds(30))) { transport in
            let users = RosterAPIDirectory(client: APIClient(baseURL: server.url, token: "tls-token", transport: transport, logger: quietLogger))
            do {
                _ = try await users.health()
                Issue.record("a certificate from an unknown authority was trusted")
            } catch let error as APIError {
                guard case .insecureConnection = error else { Issue.record("not a TLS failure: \(error)"); return }
                #expect(error.localizedDescription.hasPrefix("Could not make a secure connection to 127.0.0.1"), "\(error.localizedDescription)")
                #expect(error.localizedDescription.lowercased().contains("certificate"), "\(error.localizedDescription)")
                #expect(error.recoverySuggestion?.contains("caFile") == true)
            }
        }
        await server.shutdown()
    }

    @Test("A key file the group or others may read is refused, as ssh does; a key that is not the certificate's is refused")
    func unsafeKeyRefused() async throws {
        let ca = try TestCA.make()
        defer { ca.remove() }
        let files = try ca.issue("server", commonName: "roster-server one")
        let database = ca.directory.appendingPathComponent("users.sqlite").path
        for mode in [0o644, 0o640, 0o604] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: files.key)
            let error = await #expect(throws: TLSFileError.self) {
                _ = try await UserAPIServer.start(ServerConfiguration(
                    databasePath: database, tls: TLSFiles(certificatePath: files.certificate, keyPath: files.key)))
            }
            #expect(error?.description.contains("chmod 600 \(files.key)") == true, "\(String(describing: error))")
        }
        #expect(!FileManager.default.fileExists(atPath: database), "refused before the database is opened")

        let other = try ca.issue("other", commonName: "another server")
        let error = await #expect(throws: TLSFileError.self) {
            _ = try await UserAPIServer.start(ServerConfiguration(
                databasePath: database, tls: TLSFiles(certificatePath: files.certificate, keyPath: other.key)))
        }
        #expect(error?.description.contains("does not match the certificate") == true, "\(String(describing: error))")
    }

    @Test("roster-server over HTTPS: curl speaks HTTP/2 with the CA and refuses without it; SIGHUP rotates the certificate during a run of writes, none lost or refused")
    func rotationDuringWrites() async throws {
        let ca = try TestCA.make()
        defer { ca.remove() }
        let files = try ca.issue("server", commonName: "roster-server before")
        let database = ca.directory.appendingPathComponent("users.sqlite").path
        let server = try ServerProcess(arguments: [
            "--port", "0", "--database", database, "--token", "tls-token", "--log-level", "notice",
            "--tls-cert", files.certificate, "--tls-key", files.key])
        let url = try await server.waitForListening()
        #expect(url.scheme == "https")
        let port = try #require(url.port)

        let curl = try await Self.run("curl", ["--cacert", ca.certificatePath, "-s", "-o", "/dev/null",
                                               "-w", "%{http_version} %{http_code}", "\(url.absoluteString)/api/v1/health"])
        #expect(curl.status == 0 && curl.output == "2 200", "\(curl)")
        let untrusted = try await Self.run("curl", ["-s", "-o", "/dev/null", "\(url.absoluteString)/api/v1/health"])
        #expect(untrusted.status == 60, "curl's exit status for a certificate it cannot verify: \(untrusted)")

        try await TestTransport.with(TransportOptions(connectTimeout: .seconds(30), caFile: ca.certificatePath)) { transport in
            let users = RosterAPIDirectory(client: APIClient(baseURL: url, token: "tls-token", transport: transport, logger: quietLogger))
            let created = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        for index in 0..<25 {
                            _ = try await users.createUser(UserDraft(name: "Rotated \(worker)-\(index)", email: "r\(worker)-\(index)@example.com"))
                        }
                        return 25
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(200))
                    try ca.issue("server", commonName: "roster-server after")
                    server.signal(SIGHUP)
                    return 0
                }
                return try await group.reduce(0, +)
            }
            #expect(created == 150)
            #expect(try await users.listUsers(UserQuery(page: 1, perPage: 1)).total == 150)
        }
        let rotated = await eventually(within: .seconds(10)) {
            let probe = try? await TLSProbe.probe(host: "127.0.0.1", port: port, caFile: ca.certificatePath, timeout: .seconds(10))
            return probe?.subject.contains("roster-server after") == true && probe?.trustProblem == nil
        }
        #expect(rotated, "new connections get the new certificate")
        #expect(server.process.isRunning, "SIGHUP does not stop the server")
        #expect(server.stderr.contains("certificate and key read again"), "\(server.stderr)")

        // A broken file on SIGHUP is logged and the certificate in use stays.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: files.key)
        server.signal(SIGHUP)
        #expect(await eventually { server.stderr.contains("the certificate in use stays") }, "\(server.stderr)")
        let after = try await Self.run("curl", ["--cacert", ca.certificatePath, "-s", "-o", "/dev/null", "-w", "%{http_code}", "\(url.absoluteString)/api/v1/health"])
        #expect(after.output == "200")
        server.signal(SIGTERM)
        _ = await server.waitForExit()
    }

    @Test("The standalone server refuses an unsafe key at start with the reason, and --tls-cert without --tls-key")
    func commandLineRefusals() async throws {
        let ca = try TestCA.make()
        defer { ca.remove() }
        let files = try ca.issue("server", commonName: "roster-server")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: files.key)
        let database = ca.directory.appendingPathComponent("users.sqlite").path
        let open = try ServerProcess(arguments: ["--port", "0", "--database", database, "--token", "t", "--tls-cert", files.certificate, "--tls-key", files.key])
        let exit = await open.waitForExit()
        #expect(exit.status != 0)
        #expect(open.stderr.contains("is open to others (mode 644)"), "\(open.stderr)")

        let half = try ServerProcess(arguments: ["--port", "0", "--database", database, "--token", "t", "--tls-cert", files.certificate])
        #expect(await half.waitForExit().status != 0)
        #expect(half.stderr.contains("--tls-cert and --tls-key go together"), "\(half.stderr)")
    }

    /// Runs a command to its end without holding a thread, returning its exit status and output.
    static func run(_ command: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.finish() }
        try process.run()
        for await _ in ended.stream {}
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, output)
    }
}
