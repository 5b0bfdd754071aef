import Foundation
import Testing
import RosterKit
import RosterKitTestSupport

@Suite("Redaction in logs")
struct RedactionTests {
    @Test func credentialsInHeadersAreRedacted() {
        let headers: HTTPHeaders = ["Authorization": "Bearer abc", "cookie": "session=1", "Set-Cookie": "a=b",
                                    "Proxy-Authorization": "Basic x", "Accept": "application/json"]
        let redacted = Redaction.headers(headers)
        #expect(redacted["Authorization"] == "<redacted>")
        #expect(redacted["Cookie"] == "<redacted>")
        #expect(redacted["Set-Cookie"] == "<redacted>")
        #expect(redacted["Proxy-Authorization"] == "<redacted>")
        #expect(redacted["Accept"] == "application/json")
    }

    @Test func tokensInQueriesAndUserInfoAreRedacted() {
        let url = URL(string: "https://bob:pw@h.example/api/v1/users?q=ana&access_token=abc123&API_KEY=k&page=2&client_secret=s")!
        let text = Redaction.url(url)
        #expect(text == "https://h.example/api/v1/users?q=ana&access_token=<redacted>&API_KEY=<redacted>&page=2&client_secret=<redacted>")
        for secret in ["abc123", "=k&", "pw", "bob", "=s"] {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
    }

    @Test func theClientsLogsNeverContainTheToken() async throws {
        let recorder = LogRecorder()
        let token = "s3cr3t-T0KEN-value"
        let transport = ScriptedTransport([
            .respond(.text(envelope(sampleUserJSON), headers: ["Set-Cookie": "sid=cookie-value"])),
            .respond(.error(401, code: "unauthorized", message: "Bad token.")),
            .respond(.text("not json")),
        ])
        let repository = RosterAPIDirectory(client: makeClient(transport, token: token, logRecorder: recorder))
        _ = try await repository.user(id: "u1")
        _ = try? await repository.user(id: "u1")
        _ = try? await repository.user(id: "u1")
        let log = recorder.text
        #expect(log.contains("GET https://api.example.com/roster/api/v1/users/u1 → 200"))
        #expect(log.contains("→ 401"))
        #expect(log.contains("Authorization: <redacted>"), "headers are logged at trace, redacted")
        #expect(!log.contains(token))
        #expect(!log.contains("cookie-value"))
        #expect(transport.requests.allSatisfy { $0.headers["Authorization"] == "Bearer \(token)" }, "redaction touches only the log")
    }
}

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func aHundredConcurrentRequestsThroughOneClientEachGetTheirOwnAnswer() async throws {
        // Each answer is built from its own request, after a random pause so they finish out of order.
        let transport = ScriptedTransport(.handler { request in
            let id = request.url.lastPathComponent
            try await Task.sleep(for: .microseconds(Int.random(in: 0...2000)))
            return .json(APIResponse.success(User.fixture(id: id, name: "Name \(id)", email: "\(id)@example.com")))
        })
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: ContinuousClock()))
        let results = try await withThrowingTaskGroup(of: (String, User).self) { group in
            for index in 0..<100 {
                group.addTask { ("id\(index)", try await repository.user(id: "id\(index)")) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(results.count == 100)
        for (id, user) in results {
            #expect(user.id == id)
            #expect(user.name == "Name \(id)")
        }
        #expect(transport.requestCount == 100)
    }
}
