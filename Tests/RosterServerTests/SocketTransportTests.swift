import Foundation
import RosterKit
import RosterServer
import Testing

@Suite("RosterKit's SocketTransport against the real server")
struct SocketTransportTests {
    private func repository(_ server: TestServer, transport: SocketTransport = SocketTransport()) -> RemoteUserRepository {
        RemoteUserRepository(client: server.client(transport: transport))
    }

    @Test("CRUD, error bodies and headers come through unchanged")
    func roundTrip() async throws {
        try await withServer { server in
            let users = repository(server)
            let created = try await users.create(UserDraft(name: "Анна 佐藤 👩🏽‍💻", email: "anna@example.com"))
            #expect(Array(created.name.utf8) == Array("Анна 佐藤 👩🏽‍💻".utf8))
            #expect(try await users.get(id: created.id) == created)
            let updated = try await users.update(id: created.id, with: UserDraft(name: "Anna", email: "anna@example.org"))
            #expect(try await users.list(UserQuery(search: "ANNA")).items == [updated])
            #expect(try await users.delete(id: created.id) == updated)
            do {
                _ = try await users.get(id: created.id)
                Issue.record("a deleted user must be gone")
            } catch let error as APIError {
                #expect(error.status == 404)
                #expect(error.body?.code == "not_found")
            }
            let raw = try await SocketTransport().send(TransportRequest(method: .patch, url: server.url.appendingPathComponent("api/v1/users"),
                                                                        headers: TestServer.authorization))
            #expect(raw.status == 405)
            #expect(raw.headers["Allow"] == "GET, POST")
        }
    }

    @Test("one transport carries many requests, in sequence and 100 at once")
    func reuseAndConcurrency() async throws {
        try await withServer(seedCount: 30) { server in
            let users = repository(server)
            for page in 1...50 {
                #expect(try await users.list(UserQuery(page: page % 3 + 1, perPage: 10)).items.count == 10)
            }
            let totals = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 { group.addTask { try await users.list(UserQuery(perPage: 5)).total } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(totals == Array(repeating: 30, count: 100))
        }
    }

    @Test("a body over the cap is responseTooLarge, not memory")
    func responseTooLarge() async throws {
        try await withServer(seedCount: 20) { server in
            await #expect(throws: APIError.responseTooLarge(limitBytes: 500)) {
                _ = try await repository(server, transport: SocketTransport(maximumResponseBytes: 500)).list(UserQuery())
            }
        }
    }

    @Test("nothing listening is cannotConnect; https is refused up front")
    func cannotConnect() async throws {
        let port = try await withServer { $0.url.port! }
        do {
            _ = try await SocketTransport().send(TransportRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/api/v1/health")!))
            Issue.record("a closed port must fail")
        } catch let error as APIError {
            #expect(error == .cannotConnect(host: "127.0.0.1:\(port)"))
            #expect(error.isRetryable)
        }
        await #expect(throws: APIError.self) {
            _ = try await SocketTransport().send(TransportRequest(method: .get, url: URL(string: "https://example.com/")!))
        }
    }

    @Test("cancelling the task ends a request the server is still holding, at once")
    func cancellation() async throws {
        try await withServer(faults: FaultInjection(latency: .seconds(3))) { server in
            let users = repository(server)
            let call = Task { try await users.list(UserQuery()) }
            #expect(await eventually { server.logs.text.contains("GET /api/v1/users started") })
            let clock = ContinuousClock()
            let started = clock.now
            call.cancel()
            await #expect(throws: CancellationError.self) { _ = try await call.value }
            #expect(clock.now - started < .seconds(1))
        }
    }
}
