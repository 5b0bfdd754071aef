import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback port where nothing listens, kept so: a socket bound to it that never calls
/// listen(2), so every connection is refused, and no other socket can take the port while this
/// lives. (Closing a listener to free its port was racy: under the whole parallel suite another
/// test's server was given the same port before the check connected, and answered.)
public final class RefusingPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenerError("socket", errno) }
        do {
            port = try SocketAddress.bindLoopback(fd, ipv6: false)
        } catch {
            Glibc.close(fd)
            throw error
        }
        descriptor = fd
    }

    deinit { Glibc.close(descriptor) }

    /// `http://127.0.0.1:port`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
}
