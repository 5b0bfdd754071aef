import Foundation
import RosterKit
import RosterKitTestSupport
import NIOConcurrencyHelpers
import Testing

/// A proxy in front of the real server that loses answers on purpose: the request reaches the
/// server and is committed, and then the connection to the client is cut before the answer.
private final class AnswerLosingProxy: Sendable {
    private final class State: Sendable {
        let posts = NIOLockedValueBox<[TransportRequest]>([])
        let answersToLose = NIOLockedValueBox(0)
    }
    private let listener: LoopbackListener
    private let state = State()

    var url: URL { listener.url }
    var posts: [TransportRequest] { state.posts.withLockedValue { $0 } }

    /// - Parameters:
    ///   - loseFirstPostAnswers: how many POST answers to drop, from the first on.
    ///   - hideFeatures: answer /api/v1/health without `features`, as a server that does not
    ///     replay idempotency keys would.
    init(upstream: URL, loseFirstPostAnswers: Int, hideFeatures: Bool) throws {
        let state = state
        state.answersToLose.withLockedValue { $0 = loseFirstPostAnswers }
        listener = try LoopbackListener { connection in
            while let incoming = connection.readRequest() {
                var request = TransportRequest(
                    method: HTTPMethod(rawValue: incoming.method) ?? .get,
                    url: URL(string: upstream.absoluteString + incoming.target)!,
                    body: incoming.body.isEmpty ? nil : incoming.body)
                for (name, value) in incoming.headers where !["host", "content-length", "connection"].contains(name.lowercased()) {
                    request.headers.add(name: name, value: value)
                }
                let forwarded = request
                let answer = Self.blocking { try await TestTransport.shared.send(forwarded) }
                if request.method == .post {
                    state.posts.withLockedValue { $0.append(forwarded) }
                    let lose = state.answersToLose.withLockedValue { left in defer { left = max(0, left - 1) }; return left > 0 }
                    if lose {
                        connection.reset() // committed upstream; the client never hears
                        return
                    }
                }
                guard var response = answer else { return }
                if hideFeatures, incoming.target.hasSuffix("/api/v1/health") {
                    response.body = Data(#"{"success":true,"data":{"status":"ok"},"error":null}"#.utf8)
                }
                var head = "HTTP/1.1 \(response.status) X\r\n"
                for field in response.headers where !["content-length", "transfer-encoding", "connection"].contains(field.name.lowercased()) {
                    head += "\(field.name): \(field.value)\r\n"
                }
                head += "Content-Length: \(response.body.count)\r\n\r\n"
                connection.write(Array(head.utf8) + Array(response.body))
            }
        }
    }

    func close() { listener.close() }

    /// Runs async work from the proxy's plain thread.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> T? {
        let box = NIOLockedValueBox<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = try? await work()
            box.withLockedValue { $0 = value }
            done.signal()
        }
        done.wait()
        return box.withLockedValue { $0 }
    }
}

@Suite("Creates whose answer was lost, against the real server")
struct LostAnswerTests {
    static let quickRetries = RetryPolicy(baseDelay: .milliseconds(5))

    private static func users(through proxy: AnswerLosingProxy) -> RosterAPIDirectory {
        RosterAPIDirectory(client: APIClient(
            baseURL: proxy.url, token: TestServer.token, transport: TestTransport.shared, retryPolicy: quickRetries,
            logger: quietLogger))
    }

    @Test("with the server replaying keys, the create is sent again and exactly one user exists")
    func replayedOnce() async throws {
        try await withServer { server in
            let proxy = try AnswerLosingProxy(upstream: server.url, loseFirstPostAnswers: 1, hideFeatures: false)
            defer { proxy.close() }
            let users = Self.users(through: proxy)
            let created = try await users.createUser(UserDraft(name: "Once Only", email: "once@example.com"))
            #expect(created.email == "once@example.com")
            #expect(proxy.posts.count == 2)
            #expect(Set(proxy.posts.compactMap { $0.headers["Idempotency-Key"] }).count == 1, "both attempts carry the same key")
            let found = try await server.repository().listUsers(UserQuery(search: "once@example.com"))
            #expect(found.total == 1, "the user exists once")
            #expect(found.items.first?.id == created.id, "the replayed answer names the same user")
        }
    }

    @Test("with a server that does not say it replays keys, nothing is re-sent and the lookup finds the user")
    func notResentWithoutReplay() async throws {
        try await withServer { server in
            let proxy = try AnswerLosingProxy(upstream: server.url, loseFirstPostAnswers: 1, hideFeatures: true)
            defer { proxy.close() }
            let users = Self.users(through: proxy)
            do {
                _ = try await users.createUser(UserDraft(name: "Maybe Made", email: "maybe@example.com"))
                Issue.record("a lost answer cannot be a success here")
            } catch let error as APIError {
                guard case .createOutcomeUnknown(let existing) = error else {
                    Issue.record("expected createOutcomeUnknown, got \(error)")
                    return
                }
                #expect(existing?.email == "maybe@example.com")
            }
            #expect(proxy.posts.count == 1, "the POST was not sent twice")
            #expect(try await server.repository().listUsers(UserQuery(search: "maybe@example.com")).total == 1)
        }
    }
}
