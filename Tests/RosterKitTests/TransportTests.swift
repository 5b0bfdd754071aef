import Foundation
import RosterKit
import RosterKitTestSupport
import NIOConcurrencyHelpers
import Testing

/// `AsyncHTTPTransport` against real sockets on loopback that misbehave on purpose.
@Suite("The transport against real listeners")
struct TransportTests {
    static let ok = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

    func get(_ url: URL, path: String = "/api/v1/health") -> TransportRequest {
        TransportRequest(method: .get, url: URL(string: url.absoluteString + path)!)
    }

    func client(_ url: URL, transport: any HTTPTransport, deadline: Duration = .seconds(30), retry: RetryPolicy = .never) -> APIClient {
        APIClient(baseURL: url, token: nil, transport: transport, retryPolicy: retry, deadline: deadline,
                  logger: LogRecorder().logger(level: .critical))
    }

    /// Cancelling must end a request by itself, long before any timeout would. The 100 ms
    /// figure is measured by `make bench-server` (roster-bench --cancel, medians on a quiet
    /// machine); here, with every suite running in parallel on two cores, the bound only has
    /// to tell "ended by the cancel" from "ended by a timeout" (seconds).
    static let cancelBound: Duration = .seconds(1)

    /// How long `task` takes to end after it is cancelled.
    func timeToEndAfterCancel<T: Sendable>(_ task: Task<T, any Error>) async -> (Duration, Result<T, any Error>) {
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        let result = await task.result
        return (clock.now - start, result)
    }

    // MARK: Deadlines and cancellation

    @Test("a listener whose accept queue is full: the deadline ends the load, a cancel ends it at once")
    func fullAcceptQueue() async throws {
        let listener = try LoopbackListener(backlog: 0, accepting: false)
        let fillers = try listener.fillAcceptQueue()
        defer { fillers.forEach { close($0) }; listener.close() }
        // The shared transport's connect timeout (30 s) is longer than the deadline: the deadline must hold on its own.
        // (The shared transport: shutting one down waits for the stuck connect to time out.)
        do {
            let transport = TestTransport.shared
            let clock = ContinuousClock()
            let started = clock.now
            await #expect(throws: APIError.timedOut) {
                _ = try await client(listener.url, transport: transport, deadline: .seconds(2)).response(for: UserEndpoint.health)
            }
            #expect(clock.now - started < .seconds(3), "within the request timeout plus 1 s")

            let hanging = Task { try await client(listener.url, transport: transport).response(for: UserEndpoint.health) }
            try await Task.sleep(for: .milliseconds(300))
            let (elapsed, result) = await timeToEndAfterCancel(hanging)
            #expect(elapsed < Self.cancelBound, "cancelled while connecting: \(elapsed)")
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }

    @Test("the connect timeout ends a connection that never opens")
    func connectTimeout() async throws {
        let listener = try LoopbackListener(backlog: 0, accepting: false)
        let fillers = try listener.fillAcceptQueue()
        defer { fillers.forEach { close($0) }; listener.close() }
        try await TestTransport.with(TransportOptions(connectTimeout: .milliseconds(500))) { transport in
            await #expect(throws: APIError.cannotConnect(host: "127.0.0.1:\(listener.port)")) {
                _ = try await transport.send(get(listener.url))
            }
        }
    }

    @Test("a server that accepts and never answers: timed out at the deadline, cancelled at once")
    func neverAnswers() async throws {
        let listener = try LoopbackListener { connection in connection.waitForClose() }
        defer { listener.close() }
        let transport = TestTransport.shared
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: APIError.timedOut) {
            _ = try await client(listener.url, transport: transport, deadline: .seconds(1)).response(for: UserEndpoint.health)
        }
        #expect(clock.now - started < .seconds(2))

        let waiting = Task { try await transport.send(get(listener.url)) }
        try await Task.sleep(for: .milliseconds(300))
        let (elapsed, result) = await timeToEndAfterCancel(waiting)
        #expect(elapsed < Self.cancelBound, "cancelled while waiting for the answer: \(elapsed)")
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("a cancel in the middle of the body ends the request at once")
    func cancelDuringTheBody() async throws {
        let listener = try LoopbackListener { connection in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n{\"partial\":")
            connection.waitForClose()
        }
        defer { listener.close() }
        let reading = Task { try await TestTransport.shared.send(get(listener.url)) }
        try await Task.sleep(for: .milliseconds(300))
        let (elapsed, result) = await timeToEndAfterCancel(reading)
        #expect(elapsed < Self.cancelBound, "cancelled while reading the body: \(elapsed)")
        #expect(throws: CancellationError.self) { try result.get() }
    }

    // MARK: What the server may send

    @Test("a chunked answer is put together")
    func chunked() async throws {
        let listener = try LoopbackListener { connection in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n")
            for part in [#"{"success":true,"#, #""data":{"status":"ok"},"#, #""error":null}"#] {
                connection.write(String(part.utf8.count, radix: 16) + "\r\n" + part + "\r\n")
                usleep(20_000)
            }
            connection.write("0\r\n\r\n")
        }
        defer { listener.close() }
        let health: HealthStatus = try await client(listener.url, transport: TestTransport.shared).send(UserEndpoint.health)
        #expect(health.status == "ok")
    }

    @Test("`Connection: close, TE` closes: the next request opens a new connection and succeeds")
    func connectionCloseInAList() async throws {
        let listener = try LoopbackListener { connection in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nConnection: close, TE\r\nContent-Length: 2\r\n\r\n{}")
            // Closes after this answer, as it said it would.
        }
        defer { listener.close() }
        for _ in 1...3 {
            #expect(try await TestTransport.shared.send(get(listener.url)).status == 200)
        }
        #expect(listener.acceptedCount == 3)
    }

    @Test("interim 1xx answers before the final one are skipped")
    func interimAnswers() async throws {
        let listener = try LoopbackListener { connection in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
            connection.write(Self.ok)
        }
        defer { listener.close() }
        let response = try await TestTransport.shared.send(get(listener.url))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "{}")
    }

    @Test("a hostile chunk size is an error, not a crash")
    func hostileChunkSize() async throws {
        let listener = try LoopbackListener { connection in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffffffff\r\nx\r\n")
            connection.waitForClose()
        }
        defer { listener.close() }
        await #expect(throws: APIError.self) { _ = try await TestTransport.shared.send(get(listener.url)) }
    }

    @Test("a Content-Length over the cap is refused before the body is read")
    func declaredTooLarge() async throws {
        let listener = try LoopbackListener { connection in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 999999999\r\n\r\n")
            connection.waitForClose()
        }
        defer { listener.close() }
        try await TestTransport.with(TransportOptions(maximumResponseBytes: 1000)) { transport in
            await #expect(throws: APIError.responseTooLarge(limitBytes: 1000)) { _ = try await transport.send(get(listener.url)) }
        }
    }

    // MARK: Writes

    @Test("a server that closes right after reading a POST: the POST is not sent again, a GET is")
    func closedAfterReadingAPost() async throws {
        let methods = NIOLockedValueBox<[String]>([])
        let listener = try LoopbackListener { connection in
            while let request = connection.readRequest() {
                methods.withLockedValue { $0.append(request.method) }
                if request.method == "POST" || request.target.hasSuffix("/users/u1") { return } // read, then hang up
                connection.write(#"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 34\r\n\r\n{"success":true,"data":{"status":"ok"}}"#
                    .replacingOccurrences(of: "34", with: "\(#"{"success":true,"data":{"status":"ok"}}"#.utf8.count)"))
            }
        }
        defer { listener.close() }
        let retrying = RetryPolicy(baseDelay: .milliseconds(1))
        let api = client(listener.url, transport: TestTransport.shared, retry: retrying)
        await #expect(throws: APIError.connectionLost) {
            _ = try await api.response(for: UserEndpoint.create(UserDraft(name: "Ana", email: "ana@example.com"), idempotencyKey: "k"))
        }
        #expect(methods.withLockedValue { $0 } == ["POST"], "a POST that may have landed is never re-sent")

        await #expect(throws: APIError.connectionLost) { _ = try await api.response(for: UserEndpoint.get(id: "u1")) }
        #expect(methods.withLockedValue { $0.filter { $0 == "GET" }.count } == 3, "a GET is retried up to the policy's attempts")
    }

    @Test("redirects: a GET follows one to the same origin; another origin, or a POST, is handed back")
    func redirects() async throws {
        let other = try LoopbackListener { connection in
            _ = connection.readRequest()
            connection.write(Self.ok)
        }
        defer { other.close() }
        let listener = try LoopbackListener { connection in
            while let request = connection.readRequest() {
                switch request.target {
                case "/moved": connection.write("HTTP/1.1 301 Moved\r\nLocation: /api/v1/health\r\nContent-Length: 0\r\n\r\n")
                case "/away": connection.write("HTTP/1.1 302 Found\r\nLocation: \(other.url.absoluteString)/x\r\nContent-Length: 0\r\n\r\n")
                case "/post": connection.write("HTTP/1.1 307 Temporary\r\nLocation: /api/v1/health\r\nContent-Length: 0\r\n\r\n")
                default: connection.write(Self.ok)
                }
            }
        }
        defer { listener.close() }
        let transport = TestTransport.shared
        #expect(try await transport.send(get(listener.url, path: "/moved")).status == 200)
        #expect(try await transport.send(get(listener.url, path: "/away")).status == 302)
        #expect(other.acceptedCount == 0, "the request (and its token) never went to another origin")
        let post = TransportRequest(method: .post, url: URL(string: listener.url.absoluteString + "/post")!, body: Data("{}".utf8))
        #expect(try await transport.send(post).status == 307)
    }

    // MARK: Addresses, TLS and proxies

    @Test("http://[::1]:PORT works")
    func ipv6Literal() async throws {
        let listener = try LoopbackListener(ipv6: true) { connection in
            _ = connection.readRequest()
            connection.write(Self.ok)
        }
        defer { listener.close() }
        #expect(listener.url.absoluteString.hasPrefix("http://[::1]:"))
        #expect(try await TestTransport.shared.send(get(listener.url)).status == 200)
    }

    @Test("a self-signed certificate is refused with a clear message, and accepted with caFile")
    func selfSignedCertificate() async throws {
        let certificate = try SelfSignedCertificate.make()
        defer { certificate.remove() }
        let server = try await TLSListener.start(certificate: certificate, response: Self.ok)
        let url = URL(string: "https://127.0.0.1:\(server.port)")!
        do {
            _ = try await TestTransport.shared.send(get(url))
            Issue.record("an untrusted certificate must be refused")
        } catch let error as APIError {
            guard case .insecureConnection(let host, let reason) = error else {
                Issue.record("expected insecureConnection, got \(error)")
                await server.close()
                return
            }
            #expect(host == "127.0.0.1:\(server.port)")
            #expect(reason.contains("not trusted"))
            #expect(error.recoverySuggestion?.contains("caFile") == true)
            #expect(!error.isRetryable)
        }
        let status = try await TestTransport.with(TransportOptions(caFile: certificate.certificatePath)) { transport in
            try await transport.send(get(url)).status
        }
        #expect(status == 200)
        await server.close()
    }

    @Test("a caFile that holds no certificate is an error up front")
    func unreadableCAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-cert-\(UUID().uuidString).pem").path
        try "hello".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: APIError.invalidRequest("caFile \(path) holds no PEM certificate that can be read.")) {
            _ = try AsyncHTTPTransport(options: TransportOptions(caFile: path))
        }
    }

    @Test("with HTTPS_PROXY set, https goes through the proxy's CONNECT tunnel")
    func httpsProxy() async throws {
        let certificate = try SelfSignedCertificate.make()
        defer { certificate.remove() }
        let server = try await TLSListener.start(certificate: certificate, response: Self.ok)
        let proxy = try ConnectProxy(upstreamPort: server.port)
        defer { proxy.close() }
        let proxies = try ProxySettings.from(environment: ["HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)"])
        // A name only the proxy can reach: the client never resolves it itself.
        let url = URL(string: "https://\(SelfSignedCertificate.hostName):8443")!
        let status = try await TestTransport.with(TransportOptions(caFile: certificate.certificatePath, proxies: proxies)) { transport in
            try await transport.send(get(url)).status
        }
        #expect(status == 200)
        #expect(proxy.connectTargets == ["\(SelfSignedCertificate.hostName):8443"])
        await server.close()
    }
}
