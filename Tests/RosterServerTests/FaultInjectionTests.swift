import Foundation
import RosterKit
import RosterKitTestSupport
import RosterServer
import NIOConcurrencyHelpers
import Testing

/// Counts the attempts that reach the network.
private final class CountingTransport: HTTPTransport {
    let base = TestTransport.shared
    let statuses = NIOLockedValueBox<[Int]>([])

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await base.send(request)
        statuses.withLockedValue { $0.append(response.status) }
        return response
    }
}

@Suite("Fault injection")
struct FaultInjectionTests {
    /// The client's default attempts (3), with waits cut short so the test is quick.
    static let quickRetries = RetryPolicy(baseDelay: .milliseconds(5), maximumRetryAfter: .milliseconds(20))

    @Test("--fail-first 2: the client's retry succeeds on the third attempt")
    func failFirstTwo() async throws {
        try await withServer(seedCount: 3, faults: FaultInjection(failFirst: 2)) { server in
            let transport = CountingTransport()
            let client = server.client(retryPolicy: Self.quickRetries, transport: transport)
            #expect(RetryPolicy.default.maximumAttempts == 3)
            let page = try await RosterAPIDirectory(client: client).listUsers(UserQuery())
            #expect(page.total == 3)
            #expect(transport.statuses.withLockedValue { $0 } == [503, 503, 200])
            // Health is not under /api/v1/users and never fails.
            #expect(try await RosterAPIDirectory(client: client).health().status == "ok")
        }
    }

    @Test("an injected 503 has the envelope and Retry-After: 1; without retries the client sees it")
    func injectedFailureShape() async throws {
        try await withServer(faults: FaultInjection(failFirst: 1)) { server in
            await #expect(throws: APIError.serviceUnavailable(retryAfter: .seconds(1), ErrorBody(
                code: "unavailable", message: "The server is unavailable right now (injected fault); try again shortly."))) {
                _ = try await server.repository().listUsers(UserQuery())
            }
            let page = try await server.repository().listUsers(UserQuery())
            #expect(page.total == 0)
        }
    }

    @Test("--fail-rate 1 fails every users call, and only those")
    func failRateOne() async throws {
        try await withServer(faults: FaultInjection(failRate: 1)) { server in
            for (method, path) in [(HTTPMethod.get, "/api/v1/users"), (.get, "/api/v1/users/x"), (.delete, "/api/v1/users/x")] {
                let answer = try await server.raw(method, path, headers: TestServer.authorization)
                #expect(answer.status == 503)
                #expect(answer.header("Retry-After") == "1")
                #expect(answer.errorEnvelope?.code == "unavailable")
            }
            #expect(try await server.raw(.get, "/api/v1/health").status == 200)
            #expect(try await server.raw(.get, "/openapi.json").status == 200)
        }
    }

    @Test("--fail-rate 0.5 fails about half the calls")
    func failRateHalf() async throws {
        try await withServer(faults: FaultInjection(failRate: 0.5)) { server in
            var failures = 0
            for _ in 0..<200 where try await server.raw(.get, "/api/v1/users", headers: TestServer.authorization).status == 503 {
                failures += 1
            }
            // Binomial(200, 0.5): outside 60...140 has a probability below 1e-8.
            #expect((60...140).contains(failures))
        }
    }

    @Test("--latency delays users calls, not health")
    func latency() async throws {
        // The health call goes while the users call is held: it must not wait for the latency.
        // Judged against the latency, long enough that a loaded machine (the suite runs in
        // parallel on two cores; a health call alone once took 2.004 s, and once 3.5 s) cannot
        // make an undelayed call look delayed.
        let latency = Duration.seconds(10)
        try await withServer(faults: FaultInjection(latency: latency)) { server in
            let clock = ContinuousClock()
            async let slow = clock.measure { _ = try await server.raw(.get, "/api/v1/users", headers: TestServer.authorization) }
            let fast = try await clock.measure { _ = try await server.raw(.get, "/api/v1/health") }
            #expect(fast < latency)
            #expect(try await slow >= latency)
        }
    }
}
