import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOConcurrencyHelpers

/// The transport for http and https alike, on AsyncHTTPClient: a pool of kept-alive
/// connections per host, TLS with the system's trust store (plus `caFile`), HTTP/2 where the
/// server offers it, proxies from the environment, and a cap on the answer's size.
///
/// It never sends a request twice: AsyncHTTPClient does not retry, and redirects are followed
/// here, for GET only and only to the same origin (a POST answered 307 is not re-sent
/// elsewhere, and a token is never carried to another host). Retrying is the API client's
/// decision alone.
public final class AsyncHTTPTransport: HTTPTransport {
    public static let maximumRedirects = 5

    public let options: TransportOptions
    /// nil without a `caFile`: AsyncHTTPClient then makes its default (the system's trust
    /// store) when an https connection opens, and an http start does not build a TLS
    /// configuration it never uses (NIOSSL's cipher list, 0.3 ms of a start).
    private let tlsConfiguration: TLSConfiguration?
    /// One client per route: direct, or through each proxy in use. Made on first use.
    private let clients = NIOLockedValueBox<[ProxySettings.Proxy?: HTTPClient]>([:])

    /// - Throws: `APIError.invalidRequest` when `caFile` cannot be read as PEM certificates.
    public init(options: TransportOptions = TransportOptions()) throws(APIError) {
        self.options = options
        guard let caFile = options.caFile else {
            tlsConfiguration = nil
            return
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        // Read now: AsyncHTTPClient would only fail when the first connection is made.
        do {
            tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))]
        } catch {
            throw .invalidRequest("caFile \(caFile) holds no PEM certificate that can be read.")
        }
        tlsConfiguration = tls
    }

    /// Makes the client for `url`'s route now, on another thread, so that the first request
    /// finds it made: AsyncHTTPClient's first client (NIO's threads, its pool manager) took a
    /// start 2 ms, which now pass beside the dialect file, the journal and the terminal.
    public func prepare(for url: URL) {
        let proxy = options.proxies.proxy(for: url)
        // On an event loop thread (the client's own, started here): a task would hold one of
        // the cooperative pool's threads (two on two cores), and the first request would wait
        // for it; a thread of its own measured 0.2 MB more at peak.
        MultiThreadedEventLoopGroup.singleton.any().execute { _ = self.client(for: proxy) }
    }

    deinit {
        // Shutting down keeps each client alive until it is done; nothing waits for it here.
        for client in clients.withLockedValue({ Array($0.values) }) { _ = client.shutdown() }
    }

    /// Closes every connection. Requests sent afterwards fail.
    public func shutdown() async {
        let all = clients.withLockedValue { clients in
            defer { clients.removeAll() }
            return Array(clients.values)
        }
        for client in all { try? await client.shutdown() }
    }

    /// Shuts down, but waits at most `limit`: a connection still trying to open holds a
    /// shutdown until its connect timeout, and quitting must not wait for that.
    public func shutdown(waitingAtMost limit: Duration) async {
        final class Once: Sendable {
            let done = NIOLockedValueBox(false)
            func first() -> Bool { done.withLockedValue { done in defer { done = true }; return !done } }
        }
        let once = Once()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeOnce = { @Sendable in
                if once.first() { continuation.resume() }
            }
            Task {
                await self.shutdown()
                resumeOnce()
            }
            Task {
                try? await Task.sleep(for: limit)
                resumeOnce()
            }
        }
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var current = request
        for _ in 0...Self.maximumRedirects {
            let response = try await sendOnce(current)
            guard let next = Self.redirect(of: current, answeredBy: response) else { return response }
            current = next
        }
        throw APIError.transportFailed("The server redirected more than \(Self.maximumRedirects) times.")
    }

    private func sendOnce(_ request: TransportRequest) async throws -> TransportResponse {
        let host = Self.hostDescription(request.url)
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let client = client(for: options.proxies.proxy(for: request.url))
        do {
            let response = try await client.execute(outgoing, timeout: TimeAmount(options.requestTimeout))
            let body = try await response.body.collect(upTo: options.maximumResponseBytes)
            var headers = HTTPHeaders()
            for field in response.headers {
                headers.add(name: field.name, value: field.value)
            }
            return TransportResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            guard let mapped = TransportFailure.apiError(for: error, host: host, options: options) else {
                throw CancellationError()
            }
            throw mapped
        }
    }

    private func client(for proxy: ProxySettings.Proxy?) -> HTTPClient {
        clients.withLockedValue { clients in
            if let existing = clients[proxy] { return existing }
            var configuration = HTTPClient.Configuration()
            configuration.tlsConfiguration = tlsConfiguration
            configuration.redirectConfiguration = .disallow
            configuration.timeout = .init(connect: TimeAmount(options.connectTimeout), read: TimeAmount(options.requestTimeout))
            // Report the real reason (refused, untrusted certificate) at once rather than
            // trying to connect again until the connect timeout has passed.
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.httpVersion = .automatic
            if let proxy {
                let authorization = proxy.username.map {
                    HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
                }
                configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
            }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[proxy] = client
            return client
        }
    }

    /// The request to send next when `response` redirects a GET to the same origin; nil to
    /// hand the response back as it is.
    static func redirect(of request: TransportRequest, answeredBy response: TransportResponse) -> TransportRequest? {
        guard request.method == .get, [301, 302, 303, 307, 308].contains(response.status),
              let location = response.headers["Location"],
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              sameOrigin(target, request.url)
        else { return nil }
        var next = request
        next.url = target
        return next
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }

    static func hostDescription(_ url: URL) -> String {
        guard let host = url.host else { return "?" }
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(shown):\($0)" } ?? shown
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        self = .nanoseconds(duration.nanoseconds)
    }
}
