import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP/1.1 over plain TCP, for `http://` servers such as the embedded one on loopback.
///
/// `URLSessionTransport` on Linux costs about 0.4 ms of its own per request (libcurl, its
/// event loop and delegate hops; measured with `make bench-server`), more than the embedded
/// server takes to answer a page. This transport writes the request and reads the answer on a
/// kept-alive socket, on a dispatch queue (never on the caller's cooperative thread), and keeps
/// `HTTPTransport`'s promises: transport failures as `APIError`, the body capped while it
/// arrives, cancellation at once as `CancellationError`. It does not speak TLS: an `https` URL
/// is an `APIError.invalidRequest`; use `URLSessionTransport` for remote servers.
public final class SocketTransport: HTTPTransport {
    public let maximumResponseBytes: Int
    /// How long a socket may stay silent while a response is awaited.
    public let idleTimeout: TimeInterval
    /// Idle kept-alive connections per "host:port".
    private let pool = Mutex<[String: [SocketConnection]]>([:])
    private static let maximumIdlePerHost = 8
    private let queue = DispatchQueue(label: "roster.socket-transport", attributes: .concurrent)
    /// Each exchange blocks a dispatch thread while it waits; more than a few at once would
    /// starve every other user of the dispatch pool (an embedded server's database among them).
    /// Requests past this many wait their turn without holding a thread.
    private let slots = Slots(SocketTransport.maximumIdlePerHost)

    public init(idleTimeout: TimeInterval = 30, maximumResponseBytes: Int = URLSessionTransport.defaultMaximumResponseBytes) {
        self.idleTimeout = idleTimeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    deinit {
        for connections in pool.withLock({ $0.values }) {
            for connection in connections { connection.close() }
        }
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.url.scheme?.lowercased() == "http", let host = request.url.host, !host.isEmpty else {
            throw APIError.invalidRequest("SocketTransport speaks plain http only, not “\(request.url.scheme ?? "")”.")
        }
        let port = request.url.port ?? 80
        let bytes = HTTPMessage.serialize(request, host: host, port: port)
        let cancellation = Cancellation()
        await slots.acquire()
        defer { slots.release() }
        try Task.checkCancellation()
        let result: Result<TransportResponse, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    continuation.resume(returning: Result {
                        try self.exchange(bytes, method: request.method, host: host, port: port, cancellation: cancellation)
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        if cancellation.isCancelled { throw CancellationError() }
        return try result.get()
    }

    /// Sends on a pooled connection, or on a new one; a pooled connection the server closed
    /// while it sat idle fails before any byte of an answer, and the request goes once more
    /// on a fresh connection (safe: the server never saw it).
    private func exchange(
        _ bytes: [UInt8], method: HTTPMethod, host: String, port: Int, cancellation: Cancellation
    ) throws -> TransportResponse {
        let key = "\(host):\(port)"
        if let pooled = pool.withLock({ $0[key]?.popLast() }) {
            do {
                return try exchange(bytes, method: method, on: pooled, key: key, cancellation: cancellation)
            } catch SocketConnection.Failure.closedBeforeAnswer {
                // Stale keep-alive connection: fall through to a new one.
            }
        }
        let connection = try SocketConnection.connect(host: host, port: port, timeout: idleTimeout)
        do {
            return try exchange(bytes, method: method, on: connection, key: key, cancellation: cancellation)
        } catch SocketConnection.Failure.closedBeforeAnswer {
            throw APIError.connectionLost
        }
    }

    private func exchange(
        _ bytes: [UInt8], method: HTTPMethod, on connection: SocketConnection, key: String, cancellation: Cancellation
    ) throws -> TransportResponse {
        guard cancellation.attach(connection) else {
            connection.close()
            throw CancellationError()
        }
        defer { cancellation.detach() }
        do {
            try connection.write(bytes)
            let (response, reusable) = try HTTPMessage.readResponse(
                from: connection, expectsBody: method != .head, maximumBodyBytes: maximumResponseBytes)
            if reusable && !cancellation.isCancelled {
                let kept = pool.withLock { pool -> Bool in
                    guard pool[key, default: []].count < Self.maximumIdlePerHost else { return false }
                    pool[key, default: []].append(connection)
                    return true
                }
                if !kept { connection.close() }
            } else {
                connection.close()
            }
            return response
        } catch {
            connection.close()
            if cancellation.isCancelled { throw CancellationError() }
            throw error
        }
    }
}

/// A counting semaphore for async callers: waiting suspends, it does not block a thread.
private final class Slots: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ count: Int) {
        state = Mutex(State(available: count))
    }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

/// Lets a task's cancellation shut the socket its request is blocked on.
private final class Cancellation: Sendable {
    private struct State {
        var cancelled = false
        var connection: SocketConnection?
    }

    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() {
        let connection = state.withLock { state -> SocketConnection? in
            state.cancelled = true
            return state.connection
        }
        connection?.shutdown()
    }

    /// False when already cancelled.
    func attach(_ connection: SocketConnection) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.connection = connection
            return true
        }
    }

    func detach() {
        state.withLock { $0.connection = nil }
    }
}
