import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One accepted connection of a `LoopbackListener`, read and written with blocking calls.
/// Used only on the thread the listener runs its handler on.
public final class LoopbackConnection {
    public let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A request as it arrived: the head's lines and the body (by Content-Length).
    public struct Request: Sendable {
        public var requestLine: String
        public var headers: [(name: String, value: String)]
        public var body: Data

        public var method: String { String(requestLine.split(separator: " ").first ?? "") }
        public var target: String { requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// Reads one request (head and Content-Length body); nil when the peer closed first.
    public func readRequest() -> Request? {
        guard let headEnd = readUntil([13, 10, 13, 10]) else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
        while buffer.count < length {
            guard fill() else { return nil }
        }
        let body = Data(buffer.prefix(length))
        buffer.removeFirst(length)
        return Request(requestLine: requestLine, headers: headers.map { (name: $0.0, value: $0.1) }, body: body)
    }

    /// Reads whatever arrives next (at most 64 KiB); empty when the peer closed.
    public func readSome() -> [UInt8] {
        if !buffer.isEmpty {
            defer { buffer.removeAll() }
            return buffer
        }
        guard fill() else { return [] }
        defer { buffer.removeAll() }
        return buffer
    }

    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    public func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Blocks until the peer closes (or the listener shuts the socket down).
    public func waitForClose() {
        while fill() {}
    }

    /// Closes at once, sending a reset rather than a clean end (SO_LINGER 0).
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func readUntil(_ marker: [UInt8]) -> Int? {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for start in searchFrom...(buffer.count - marker.count) where Array(buffer[start..<start + marker.count]) == marker {
                    return start
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard fill() else { return nil }
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}
