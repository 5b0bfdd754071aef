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

    @Test("--help documents every option")
    func help() async throws {
        let server = try ServerProcess(arguments: ["--help"])
        _ = await server.waitForExit()
        for option in ["--host", "--port", "--database", "--token", "ROSTER_TOKEN", "--seed", "--fail-rate", "--fail-first", "--latency", "--list-cache-size"] {
            #expect(server.stdout.contains(option), "\(option)")
        }
    }
}
