import Foundation
import Testing
import RosterKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSession transport")
struct URLSessionTransportTests {
    func makeTransport(maximumResponseBytes: Int = URLSessionTransport.defaultMaximumResponseBytes) -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return URLSessionTransport(configuration: configuration, maximumResponseBytes: maximumResponseBytes)
    }

    func request(_ host: String, method: HTTPMethod = .get, path: String = "/api/v1/users/u1", body: Data? = nil, headers: HTTPHeaders = [:]) -> TransportRequest {
        TransportRequest(method: method, url: URL(string: "http://\(host)\(path)")!, headers: headers, body: body)
    }

    @Test func sendsMethodHeadersAndBodyAndReturnsTheResponse() async throws {
        let host = StubURLProtocol.register { _ in
            .respond(status: 201, headers: ["Content-Type": "application/json", "Location": "/api/v1/users/u9"], chunks: [Data("{\"a\":".utf8), Data("1}".utf8)])
        }
        let body = Data(#"{"name":"Ana"}"#.utf8)
        let response = try await makeTransport().send(request(host, method: .post, path: "/api/v1/users", body: body,
                                                              headers: ["Content-Type": "application/json", "Authorization": "Bearer t"]))
        #expect(response.status == 201)
        #expect(response.headers["location"] == "/api/v1/users/u9")
        #expect(response.body == Data(#"{"a":1}"#.utf8))
        let received = try #require(StubURLProtocol.requests(for: host).first)
        #expect(received.method == "POST")
        #expect(received.url.path == "/api/v1/users")
        #expect(received.headers["Authorization"] == "Bearer t")
        #expect(received.body == body)
    }

    @Test func errorStatusesAreResponsesNotErrors() async throws {
        let host = StubURLProtocol.register { _ in .respond(status: 503, headers: ["Retry-After": "1"], chunks: []) }
        let response = try await makeTransport().send(request(host))
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "1")
    }

    @Test(arguments: [
        (URLError.Code.notConnectedToInternet, APIError.offline),
        (.cannotConnectToHost, .cannotConnect(host: "HOST")),
        (.cannotFindHost, .cannotConnect(host: "HOST")),
        (.timedOut, .timedOut),
        (.networkConnectionLost, .connectionLost),
    ])
    func transportFailuresMapToTheirErrors(code: URLError.Code, expected: APIError) async throws {
        let host = StubURLProtocol.register { _ in .fail(URLError(code)) }
        let expectedError = expected == .cannotConnect(host: "HOST") ? .cannotConnect(host: host) : expected
        await #expect(throws: expectedError) { try await makeTransport().send(request(host)) }
    }

    @Test func aCancelledURLErrorIsACancellation() async throws {
        let host = StubURLProtocol.register { _ in .fail(URLError(.cancelled)) }
        await #expect(throws: CancellationError.self) { try await makeTransport().send(request(host)) }
    }

    @Test func cancellingTheTaskStopsTheRequest() async throws {
        let host = StubURLProtocol.register { _ in .hang }
        let transport = makeTransport()
        let task = Task { try await transport.send(request(host)) }
        while StubURLProtocol.requests(for: host).isEmpty { await Task.yield() }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(StubURLProtocol.wasStopped(host))
    }

    @Test func aBodyOverTheCapIsAnErrorEvenWithoutContentLength() async throws {
        let chunk = Data(repeating: 0x41, count: 64 * 1024)
        let host = StubURLProtocol.register { _ in .respond(status: 200, headers: [:], chunks: Array(repeating: chunk, count: 20)) }
        await #expect(throws: APIError.responseTooLarge(limitBytes: 1024 * 1024)) {
            try await makeTransport(maximumResponseBytes: 1024 * 1024).send(request(host))
        }
    }

    @Test func aDeclaredContentLengthOverTheCapIsRefusedUpFront() async throws {
        let host = StubURLProtocol.register { _ in
            .respond(status: 200, headers: ["Content-Length": "999999999"], chunks: [Data("x".utf8)])
        }
        await #expect(throws: APIError.responseTooLarge(limitBytes: 1000)) {
            try await makeTransport(maximumResponseBytes: 1000).send(request(host))
        }
    }

    @Test func aBodyJustUnderTheCapArrivesWhole() async throws {
        let host = StubURLProtocol.register { _ in .respond(status: 200, headers: [:], chunks: [Data(repeating: 7, count: 1000)]) }
        let response = try await makeTransport(maximumResponseBytes: 1000).send(request(host))
        #expect(response.body.count == 1000)
    }

    @Test func nothingIsCached() async throws {
        let host = StubURLProtocol.register { _ in
            .respond(status: 200, headers: ["Cache-Control": "max-age=3600"], chunks: [Data("{}".utf8)])
        }
        let transport = makeTransport()
        _ = try await transport.send(request(host))
        _ = try await transport.send(request(host))
        #expect(StubURLProtocol.requests(for: host).count == 2)
    }

    @Test func aClosedPortOnThisMachineIsCannotConnect() async throws {
        // A real socket, not a stub: bind a free port, close it, then connect to it.
        let port = try closedLoopbackPort()
        let transport = URLSessionTransport()
        let request = TransportRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/api/v1/health")!)
        await #expect(throws: APIError.cannotConnect(host: "127.0.0.1:\(port)")) { try await transport.send(request) }
    }

    @Test func throughTheClientEndToEnd() async throws {
        let host = StubURLProtocol.register { received in
            let id = received.url.lastPathComponent
            let json = sampleUserJSON.replacingOccurrences(of: #""id":"u1""#, with: #""id":"\#(id)""#)
            return .respond(status: 200, headers: ["Content-Type": "application/json"], chunks: [Data(envelope(json).utf8)])
        }
        let client = APIClient(baseURL: URL(string: "http://\(host)/")!, token: "tok", transport: makeTransport())
        let user = try await RemoteUserRepository(client: client).get(id: "é 1")
        #expect(user.id == "é 1")
        #expect(StubURLProtocol.requests(for: host).first?.headers["Authorization"] == "Bearer tok")
    }
}

/// A loopback port nothing listens on.
func closedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}
