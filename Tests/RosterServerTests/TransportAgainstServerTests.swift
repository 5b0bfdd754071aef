import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RosterKit
import RosterKitTestSupport
import RosterServer
import Testing

@Suite("RosterKit's AsyncHTTPTransport against the real server")
struct TransportAgainstServerTests {
    private func repository(_ server: TestServer, transport: any HTTPTransport = TestTransport.shared) -> RosterAPIDirectory {
        RosterAPIDirectory(client: server.client(transport: transport))
    }

    @Test("CRUD, error bodies and headers come through unchanged")
    func roundTrip() async throws {
        try await withServer { server in
            let users = repository(server)
            let created = try await users.createUser(UserDraft(name: "Анна 佐藤 👩🏽‍💻", email: "anna@example.com"))
            #expect(Array(created.name.utf8) == Array("Анна 佐藤 👩🏽‍💻".utf8))
            #expect(try await users.user(id: created.id) == created)
            let updated = try await users.updateUser(id: created.id, with: UserDraft(name: "Anna", email: "anna@example.org"))
            #expect(try await users.listUsers(UserQuery(search: "ANNA")).items == [updated])
            try await users.deleteUser(id: created.id)
            do {
                _ = try await users.user(id: created.id)
                Issue.record("a deleted user must be gone")
            } catch let error as APIError {
                #expect(error.status == 404)
                #expect(error.body?.code == "not_found")
            }
            let raw = try await TestTransport.shared.send(TransportRequest(method: .patch, url: server.url.appendingPathComponent("api/v1/users"),
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
                #expect(try await users.listUsers(UserQuery(page: page % 3 + 1, perPage: 10)).items.count == 10)
            }
            let totals = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 { group.addTask { try await users.listUsers(UserQuery(perPage: 5)).total } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(totals == Array(repeating: 30, count: 100))
        }
    }

    @Test("a body over the cap is responseTooLarge, not memory")
    func responseTooLarge() async throws {
        try await withServer(seedCount: 20) { server in
            try await TestTransport.with(TransportOptions(maximumResponseBytes: 500)) { transport in
                await #expect(throws: APIError.responseTooLarge(limitBytes: 500)) {
                    _ = try await repository(server, transport: transport).listUsers(UserQuery())
                }
            }
        }
    }

    @Test("nothing listening is cannotConnect")
    func cannotConnect() async throws {
        // A port bound but not listening: nothing answers, and no other test's server can take
        // it meanwhile (a port freed by a stopped server could be picked again at once).
        let closed = try BoundClosedPort()
        defer { closed.release() }
        let port = closed.port
        do {
            _ = try await TestTransport.shared.send(TransportRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/api/v1/health")!))
            Issue.record("a closed port must fail")
        } catch let error as APIError {
            #expect(error == .cannotConnect(host: "127.0.0.1:\(port)"))
            #expect(error.isRetryable)
        }
    }

    @Test("cancelling the task ends a request the server is still holding, at once")
    func cancellation() async throws {
        try await withServer(faults: FaultInjection(latency: .seconds(3))) { server in
            let users = repository(server)
            let call = Task { try await users.listUsers(UserQuery()) }
            #expect(await eventually { server.logs.text.contains("GET /api/v1/users started") })
            let clock = ContinuousClock()
            let started = clock.now
            call.cancel()
            await #expect(throws: CancellationError.self) { _ = try await call.value }
            #expect(clock.now - started < Duration.seconds(1).scaledForTests)
        }
    }
}

/// A loopback TCP port held by a socket that is bound and never listens: connecting to it is
/// refused for as long as it is held.
private struct BoundClosedPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXFailure(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { close(fd); throw POSIXFailure(call: "bind") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { close(fd); throw POSIXFailure(call: "getsockname") }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func release() { close(descriptor) }
}

private struct POSIXFailure: Error { let call: String }
