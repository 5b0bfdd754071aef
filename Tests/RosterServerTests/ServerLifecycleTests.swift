import Foundation
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing

@Suite("Embedding API and request logs")
struct ServerLifecycleTests {
    @Test("shutdown() lets an in-flight request finish, then refuses connections")
    func shutdownFinishesInFlight() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-embed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let logs = LogRecorder()
        let server = try await UserAPIServer.start(
            ServerConfiguration(databasePath: directory.appendingPathComponent("db.sqlite").path, token: "t", seedCount: 2,
                                faults: FaultInjection(latency: .milliseconds(500))),
            logger: logs.logger(level: .debug))
        let users = RosterAPIDirectory(client: APIClient(baseURL: server.url, token: "t", transport: TestTransport.shared, retryPolicy: .never, logger: quietLogger))
        let inFlight = Task { try await users.listUsers(UserQuery()) }
        #expect(await eventually { logs.text.contains("GET /api/v1/users started") })
        await server.shutdown()
        #expect(try await inFlight.value.total == 2)
        await #expect(throws: APIError.self) { _ = try await users.listUsers(UserQuery()) }
        await server.shutdown() // a second call is harmless
    }

    @Test("a port in use is an error from start(), not a crash")
    func portInUse() async throws {
        try await withServer { first in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-embed-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            await #expect(throws: (any Error).self) {
                _ = try await UserAPIServer.start(ServerConfiguration(
                    databasePath: directory.appendingPathComponent("db.sqlite").path, port: first.url.port!))
            }
        }
    }

    @Test("each request is logged with method, path, status and duration; never the token or the query")
    func requestLog() async throws {
        try await withServer { server in
            _ = try await server.repository().listUsers(UserQuery(search: "secret-search"))
            _ = try await server.raw(.get, "/api/v1/users/missing", headers: TestServer.authorization)
            let entries = server.logs.entries.filter { $0.level == .info && $0.metadata["path"] != nil }
            let list = try #require(entries.first { $0.metadata["path"] == "/api/v1/users" })
            #expect(list.metadata["method"] == "GET")
            #expect(list.metadata["status"] == "200")
            #expect(Double(list.metadata["duration_ms"] ?? "") != nil)
            #expect(entries.contains { $0.metadata["path"] == "/api/v1/users/missing" && $0.metadata["status"] == "404" })
            #expect(!server.logs.text.contains(TestServer.token))
            #expect(!server.logs.text.contains("secret-search"))
        }
    }

    @Test("seeding is deterministic, spread over scripts, roles, statuses and dates, with unique emails")
    func demoData() async throws {
        try await withServer(seedCount: 2000) { server in
            var all: [User] = []
            for page in 1...10 { all += try await server.repository().listUsers(UserQuery(page: page, perPage: 200)).items }
            #expect(all.count == 2000)
            #expect(Set(all.map { $0.email.lowercased() }).count == 2000)
            #expect(Set(all.map(\.role)) == Set(Role.known))
            #expect(Set(all.map(\.status)) == Set(Status.known))
            let years = Set(all.map { Calendar(identifier: .gregorian).component(.year, from: $0.createdAt) })
            #expect(years.count >= 6)
            // One sample name per script: Latin accents, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Han, Kana, Hangul.
            let scripts: [ClosedRange<UInt32>] = [0xC0...0x24F, 0x400...0x4FF, 0x370...0x3FF, 0x600...0x6FF, 0x590...0x5FF,
                                                  0x900...0x97F, 0x4E00...0x9FFF, 0x3040...0x30FF, 0xAC00...0xD7AF]
            for range in scripts {
                #expect(all.contains { $0.name.unicodeScalars.contains { range.contains($0.value) } }, "\(range)")
            }
            let again = DemoData.users(count: 2000)
            #expect(Set(again.map(\.id)) == Set(all.map(\.id)), "the same count makes the same users")
        }
    }
}
