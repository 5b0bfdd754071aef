import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Intercepts URLSession requests for hosts a test registers, answering from a handler.
/// Installed through `URLSessionConfiguration.protocolClasses` (on Linux `registerClass`
/// does not intercept http). Each test uses its own host, so tests can run in parallel.
final class StubURLProtocol: URLProtocol {
    enum Answer: Sendable {
        /// Status, headers and the body in chunks (each chunk delivered separately).
        case respond(status: Int, headers: [String: String], chunks: [Data])
        case fail(URLError)
        /// Never answer; the test cancels.
        case hang
    }

    struct Received: Sendable {
        var method: String
        var url: URL
        var headers: [String: String]
        var body: Data?
    }

    private static let handlers = Mutex<[String: @Sendable (Received) -> Answer]>([:])
    private static let received = Mutex<[String: [Received]]>([:])
    private static let stopped = Mutex<Set<String>>([])

    /// Registers a handler for a fresh host and returns that host.
    static func register(_ handler: @escaping @Sendable (Received) -> Answer) -> String {
        let host = "stub-\(UUID().uuidString.lowercased()).test"
        handlers.withLock { $0[host] = handler }
        return host
    }

    static func requests(for host: String) -> [Received] {
        received.withLock { $0[host] ?? [] }
    }

    static func wasStopped(_ host: String) -> Bool {
        stopped.withLock { $0.contains(host) }
    }

    override class func canInit(with request: URLRequest) -> Bool {
        guard let host = request.url?.host else { return false }
        return handlers.withLock { $0[host] != nil }
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let host = url.host,
              let handler = Self.handlers.withLock({ $0[host] }) else { return }
        let incoming = Received(
            method: request.httpMethod ?? "GET", url: url,
            headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody ?? Self.read(request.httpBodyStream))
        Self.received.withLock { $0[host, default: []].append(incoming) }
        switch handler(incoming) {
        case .respond(let status, let headers, let chunks):
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            for chunk in chunks { client?.urlProtocol(self, didLoad: chunk) }
            client?.urlProtocolDidFinishLoading(self)
        case .fail(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .hang:
            break
        }
    }

    override func stopLoading() {
        if let host = request.url?.host { _ = Self.stopped.withLock { $0.insert(host) } }
    }

    private static func read(_ stream: InputStream?) -> Data? {
        guard let stream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
