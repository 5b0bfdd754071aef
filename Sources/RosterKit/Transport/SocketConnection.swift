import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C socket calls, named through the platform's module (`close` and friends are also
/// methods here, so unqualified calls would not find them).
private enum Sys {
    #if canImport(Glibc)
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Glibc.connect(fd, address, length) }
    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int { Glibc.send(fd, bytes, count, flags) }
    static func recv(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int { Glibc.recv(fd, bytes, count, flags) }
    static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 { Glibc.shutdown(fd, how) }
    static func close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { Darwin.connect(fd, address, length) }
    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int { Darwin.send(fd, bytes, count, flags) }
    static func recv(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int { Darwin.recv(fd, bytes, count, flags) }
    static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 { Darwin.shutdown(fd, how) }
    static func close(_ fd: Int32) -> Int32 { Darwin.close(fd) }
    static let noSignal: Int32 = 0 // SO_NOSIGPIPE would be set on the socket instead
    #endif
}

/// One TCP connection with blocking reads and writes (the socket transport runs them on a
/// dispatch queue). Failures come out as `APIError` transport cases.
final class SocketConnection: Sendable {
    enum Failure: Error {
        /// The peer closed (or reset) the connection before a byte of the answer arrived.
        case closedBeforeAnswer
    }

    private let descriptor: Int32
    /// Bytes read past what the last `read` call needed.
    private let pending = Mutex<[UInt8]>([])
    private let receivedAny = Atomic<Bool>(false)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    static func connect(host: String, port: Int, timeout: TimeInterval) throws -> SocketConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let lookupHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(lookupHost, String(port), &hints, &list) == 0, let first = list else {
            throw APIError.cannotConnect(host: "\(host):\(port)")
        }
        defer { freeaddrinfo(list) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            if Sys.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                var on: Int32 = 1
                // Requests are one write each; Nagle's delay would only add latency.
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
                return SocketConnection(descriptor: descriptor)
            }
            _ = Sys.close(descriptor)
        }
        throw APIError.cannotConnect(host: "\(host):\(port)")
    }

    func write(_ bytes: [UInt8]) throws {
        receivedAny.store(false, ordering: .relaxed)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Sys.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Sys.noSignal)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            offset += written
        }
    }

    /// Up to `maximum` bytes: what is pending first, else one `recv`. Empty means end of stream.
    func read(maximum: Int = 64 * 1024) throws -> [UInt8] {
        let buffered = pending.withLock { pending -> [UInt8] in
            defer { pending = [] }
            return pending
        }
        if !buffered.isEmpty { return buffered }
        var chunk = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = chunk.withUnsafeMutableBytes { Sys.recv(descriptor, $0.baseAddress, maximum, 0) }
            if count > 0 {
                receivedAny.store(true, ordering: .relaxed)
                chunk.removeSubrange(count...)
                return chunk
            }
            if count == 0 {
                if !receivedAny.load(ordering: .relaxed) { throw Failure.closedBeforeAnswer }
                return []
            }
            if errno == EINTR { continue }
            throw failure(errno)
        }
    }

    /// Gives back bytes that belong to whatever is read next.
    func unread(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        pending.withLock { $0 = Array(bytes) + $0 }
    }

    /// Ends any blocked read or write at once (for cancellation); `close()` still follows.
    func shutdown() {
        _ = Sys.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    func close() {
        _ = Sys.close(descriptor)
    }

    private func failure(_ code: Int32) -> any Error {
        switch code {
        case EAGAIN, EWOULDBLOCK, ETIMEDOUT: APIError.timedOut
        case ECONNRESET, EPIPE, ENOTCONN:
            receivedAny.load(ordering: .relaxed) ? APIError.connectionLost : Failure.closedBeforeAnswer
        default: APIError.transportFailed(String(cString: strerror(code)))
        }
    }
}
