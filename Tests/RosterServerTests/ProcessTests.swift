import Foundation
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("The roster-server binary")
struct ProcessTests {
    private static func temporaryDatabase() -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-process-\(UUID().uuidString)")
        // A folder that does not exist yet: the server creates it.
        return (directory, directory.appendingPathComponent("nested/users.sqlite").path)
    }

    @Test("SIGKILL right after the 201s loses none of the acknowledged users")
    func durability() async throws {
        let (directory, path) = Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(arguments: ["--port", "0", "--database", path, "--token", "kill-test", "--log-level", "warning"])
        let url = try await server.waitForListening()
        let users = RosterAPIDirectory(client: APIClient(baseURL: url, token: "kill-test", transport: TestTransport.shared, logger: quietLogger))

        let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<10 {
                group.addTask {
                    var ids: [String] = []
                    for index in 0..<20 {
                        ids.append(try await users.createUser(UserDraft(name: "Durable \(worker)-\(index)", email: "d\(worker)-\(index)@example.com")).id)
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        server.signal(SIGKILL)
        let exit = await server.waitForExit()
        #expect(exit.reason == .uncaughtSignal)
        #expect(exit.status == SIGKILL)

        #expect(acknowledged.count == 200)
        let store = try SQLiteStore(path: path)
        var stored: Set<String> = []
        for page in 1...2 {
            stored.formUnion(try await store.list(UserQuery(page: page, perPage: 200)).items.map(\.id))
        }
        #expect(stored == Set(acknowledged))
    }

    @Test("prints one listening line; a generated token is printed once and works; SIGTERM lets an in-flight call finish")
    func gracefulShutdown() async throws {
        let (directory, path) = Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(
            arguments: ["--port", "0", "--database", path, "--seed", "5", "--latency", "700", "--log-level", "debug"],
            environment: ["ROSTER_TOKEN": ""])
        let url = try await server.waitForListening()
        let lines = server.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("listening on ") }.count == 1)
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:"))
        let tokenLines = lines.filter { $0.hasPrefix("token: ") }
        #expect(tokenLines.count == 1)
        let token = String(try #require(tokenLines.first).dropFirst("token: ".count))
        #expect(token.count == 64)

        let users = RosterAPIDirectory(client: APIClient(baseURL: url, token: token, transport: TestTransport.shared, retryPolicy: .never, logger: quietLogger))
        let inFlight = Task { try await users.listUsers(UserQuery()) }
        // The call is in flight once the server logged its start (the latency holds it there).
        #expect(await eventually { server.stderr.contains("GET /api/v1/users started") })
        server.signal(SIGTERM)

        let page = try await inFlight.value
        #expect(page.total == 5)
        let exit = await server.waitForExit()
        #expect(exit.reason == .exit)
        #expect(exit.status == 0)
        #expect(server.stderr.contains("GET /api/v1/users 200"))
        #expect(!server.stderr.contains(token), "the token must never be logged")
        await #expect(throws: APIError.self) { _ = try await users.listUsers(UserQuery()) }
    }

    @Test("Plain HTTP on an address other than loopback is refused without --insecure-http, before the database is opened; with it, served with a warning")
    func plainHTTPOffLoopback() async throws {
        let (directory, path) = Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        for host in ["0.0.0.0", "::", "192.0.2.1", "127.example.com"] {
            let refused = try ServerProcess(arguments: ["--host", host, "--port", "0", "--database", path, "--token", "t"])
            let exit = await refused.waitForExit()
            #expect(exit.status != 0, "\(host)")
            // The exit can be seen before the last of its standard error is read.
            let said = await eventually {
                refused.stderr.contains("--host \(host) without --tls-cert and --tls-key would send tokens and personal data over the network unencrypted")
                    && refused.stderr.contains("or add --insecure-http to serve plain HTTP anyway")
            }
            #expect(said, "\(host): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "refused before the database is made")

        let server = try ServerProcess(arguments: ["--host", "0.0.0.0", "--insecure-http", "--port", "0", "--database", path, "--token", "t", "--log-level", "warning"])
        let url = try await server.waitForListening()
        let port = try #require(url.port)
        let local = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let users = RosterAPIDirectory(client: APIClient(baseURL: local, token: "t", transport: TestTransport.shared, logger: quietLogger))
        #expect(try await users.health().status == "ok")
        #expect(await eventually { server.stderr.contains("serving plain HTTP on 0.0.0.0 (--insecure-http)") }, "\(server.stderr)")
        server.signal(SIGTERM)
        _ = await server.waitForExit()

        for host in ["127.0.0.1", "127.1.2.3", "localhost"] {
            let loopback = try ServerProcess(arguments: ["--host", host, "--port", "0", "--database", path, "--token", "t", "--log-level", "warning"])
            _ = try await loopback.waitForListening()
            #expect(!loopback.stderr.contains("plain HTTP"), "\(host): \(loopback.stderr)")
            loopback.signal(SIGTERM)
            _ = await loopback.waitForExit()
        }
    }

    @Test("--help documents every option")
    func help() async throws {
        let server = try ServerProcess(arguments: ["--help"])
        _ = await server.waitForExit()
        for option in ["--host", "--port", "--database", "--token", "ROSTER_TOKEN", "--seed", "--fail-rate", "--fail-first", "--latency", "--list-cache-size", "--insecure-http"] {
            #expect(server.stdout.contains(option), "\(option)")
        }
    }
}
