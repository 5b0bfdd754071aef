import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// A real TCP listener on loopback whose behaviour a test scripts byte by byte: answer in
/// chunks, answer 1xx first, close after reading, never answer, or never even accept.
/// Blocking sockets on plain threads, so the client under test meets a real kernel socket.
public final class LoopbackListener: Sendable {
    public let port: Int
    public let host: String
    private let descriptor: Int32
    private let state = NIOLockedValueBox(State())

    private struct State {
        var closed = false
        var connections: [Int32] = []
        var acceptedCount = 0
    }

    /// - Parameters:
    ///   - ipv6: listen on `::1` instead of `127.0.0.1`.
    ///   - backlog: the accept queue's length as passed to listen(2).
    ///   - accepting: false leaves every connection in the accept queue (a stuck server).
    ///   - handler: runs on its own thread for each accepted connection, which is closed after.
    public init(
        ipv6: Bool = false, backlog: Int32 = 64, accepting: Bool = true,
        handler: @escaping @Sendable (LoopbackConnection) -> Void = { _ in }
    ) throws {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenerError("socket", errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let boundPort: Int
        do {
            boundPort = try SocketAddress.bindLoopback(fd, ipv6: ipv6)
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ListenerError("listen", code)
        }
        descriptor = fd
        port = boundPort
        host = ipv6 ? "::1" : "127.0.0.1"
        if accepting {
            let thread = Thread { [self] in acceptLoop(handler) }
            thread.start()
        }
    }

    deinit { close() }

    /// `http://host:port` (IPv6 in brackets).
    public var url: URL {
        URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")!
    }

    /// Connections accepted so far.
    public var acceptedCount: Int { state.withLockedValue { $0.acceptedCount } }

    /// Stops listening and closes every open connection.
    public func close() {
        let open = state.withLockedValue { state -> [Int32]? in
            guard !state.closed else { return nil }
            state.closed = true
            return state.connections
        }
        guard let open else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        Glibc.close(descriptor)
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    /// Fills the accept queue of a listener that does not accept, so that the next connection
    /// attempt gets no answer at all (the kernel drops its SYN) and hangs in connect.
    /// Returns the sockets that fill the queue; close them when done.
    public func fillAcceptQueue() throws -> [Int32] {
        var fillers: [Int32] = []
        for _ in 0..<64 {
            let fd = socket(host.contains(":") ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            _ = SocketAddress.connectLoopback(fd, port: port, ipv6: host.contains(":"))
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, 300)
            fillers.append(fd)
            if ready == 0 { return fillers } // this one hangs: the queue is full
        }
        for fd in fillers { Glibc.close(fd) }
        throw ListenerError("fill the accept queue", 0)
    }

    private func acceptLoop(_ handler: @escaping @Sendable (LoopbackConnection) -> Void) {
        while true {
            let fd = accept(descriptor, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let admitted = state.withLockedValue { state -> Bool in
                guard !state.closed else { return false }
                state.connections.append(fd)
                state.acceptedCount += 1
                return true
            }
            guard admitted else {
                Glibc.close(fd)
                return
            }
            let thread = Thread { [self] in
                handler(LoopbackConnection(descriptor: fd))
                state.withLockedValue { $0.connections.removeAll { $0 == fd } }
                Glibc.close(fd)
            }
            thread.start()
        }
    }
}

public struct ListenerError: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
    }
    public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// sockaddr plumbing for loopback, IPv4 or IPv6.
enum SocketAddress {
    static func bindLoopback(_ fd: Int32, ipv6: Bool) throws -> Int {
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
            guard result == 0 else { throw ListenerError("bind", errno) }
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            return Int(UInt16(bigEndian: address.sin6_port))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw ListenerError("bind", errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @discardableResult
    static func connectLoopback(_ fd: Int32, port: Int, ipv6: Bool) -> Int32 {
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            address.sin6_port = UInt16(port).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
