import Foundation

/// How the transport connects: timeouts, extra trust, proxies and the answer's size limit.
public struct TransportOptions: Sendable, Equatable {
    public static let defaultMaximumResponseBytes = 8 * 1024 * 1024

    /// The longest a connection may take to open: name lookup, TCP, the proxy's tunnel and TLS.
    public var connectTimeout: Duration
    /// The longest one request may take from the transport's point of view, a backstop under
    /// the API client's own deadline (which also cancels the request).
    public var requestTimeout: Duration
    /// A PEM file of certificate authorities trusted besides the system's.
    public var caFile: String?
    /// Which proxy, if any, each request goes through.
    public var proxies: ProxySettings
    /// Answers larger than this are refused while they arrive.
    public var maximumResponseBytes: Int

    public init(
        connectTimeout: Duration = .seconds(5),
        requestTimeout: Duration = .seconds(30),
        caFile: String? = nil,
        proxies: ProxySettings = ProxySettings(),
        maximumResponseBytes: Int = TransportOptions.defaultMaximumResponseBytes
    ) {
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.caFile = caFile
        self.proxies = proxies
        self.maximumResponseBytes = maximumResponseBytes
    }
}
