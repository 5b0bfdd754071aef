import Foundation

/// Picks the transport for a server URL.
public enum TransportSelection {
    /// `http` (the embedded server, a server on the local network) goes over `SocketTransport`,
    /// which is several times cheaper per request on Linux; anything else, `https` above all,
    /// over `URLSessionTransport`, which speaks TLS.
    public static func transport(for baseURL: URL) -> any HTTPTransport {
        if baseURL.scheme?.lowercased() == "http" {
            return SocketTransport()
        }
        return URLSessionTransport()
    }
}
