import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP CONNECT proxy on loopback: it answers `CONNECT host:port` with 200 and then
/// copies bytes both ways to `upstreamPort` on 127.0.0.1, whatever host was asked for (so a
/// test can use a name no resolver knows). Records every CONNECT target it was asked for.
public final class ConnectProxy: Sendable {
    private final class TargetLog: Sendable {
        let targets = NIOLockedValueBox<[String]>([])
    }

    private let listener: LoopbackListener
    private let log = TargetLog()

    public var port: Int { listener.port }
    /// The `host:port` of each CONNECT request, in order.
    public var connectTargets: [String] { log.targets.withLockedValue { $0 } }

    public init(upstreamPort: Int) throws {
        let log = self.log
        listener = try LoopbackListener { client in
            guard let request = client.readRequest(), request.method == "CONNECT" else {
                client.write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            }
            log.targets.withLockedValue { $0.append(request.target) }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard SocketAddress.connectLoopback(upstream, port: upstreamPort, ipv6: false) == 0 else {
                client.write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                Glibc.close(upstream)
                return
            }
            client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
            let clientDescriptor = client.descriptor
            let upstreamDone = DispatchSemaphore(value: 0)
            let upstreamToClient = Thread {
                Self.copy(from: upstream, to: clientDescriptor)
                upstreamDone.signal()
            }
            upstreamToClient.start()
            // Anything the client sent after its CONNECT head arrives here first.
            while true {
                let bytes = client.readSome()
                if bytes.isEmpty { break }
                Self.send(bytes, to: upstream)
            }
            shutdown(upstream, Int32(SHUT_RDWR))
            upstreamDone.wait() // the other direction has stopped reading the socket
            Glibc.close(upstream)
        }
    }

    public func close() {
        listener.close()
    }

    private static func copy(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            send(Array(buffer[..<count]), to: destination)
        }
        shutdown(destination, Int32(SHUT_RDWR))
    }

    private static func send(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }
}
