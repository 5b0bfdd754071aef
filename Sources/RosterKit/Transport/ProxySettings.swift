import Foundation

/// The proxies named by `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (or their lower-case
/// forms, which win, as in curl), and which of them a URL goes through.
///
/// Loopback hosts never go through a proxy (as Go's net/http does): the embedded server on
/// 127.0.0.1 must keep working on a machine with a corporate proxy set.
public struct ProxySettings: Sendable, Equatable {
    public struct Proxy: Sendable, Equatable, Hashable {
        public var host: String
        public var port: Int
        public var username: String?
        public var password: String?

        public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
        }

        /// `host:port`, never the credentials.
        public var summary: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    public var https: Proxy?
    public var http: Proxy?
    /// Host names and domain suffixes that go direct; `*` means every host.
    public var bypass: [String]

    public init(https: Proxy? = nil, http: Proxy? = nil, bypass: [String] = []) {
        self.https = https
        self.http = http
        self.bypass = bypass
    }

    /// Reads the environment. A malformed proxy URL is an error, not silently ignored.
    public static func from(environment: [String: String]) throws(APIError) -> ProxySettings {
        func value(_ name: String) -> String? {
            for key in [name.lowercased(), name] {
                if let value = environment[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
            }
            return nil
        }
        let bypass = (value("NO_PROXY") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        return ProxySettings(
            https: try value("HTTPS_PROXY").map { text throws(APIError) in try parse(text, variable: "HTTPS_PROXY") },
            http: try value("HTTP_PROXY").map { text throws(APIError) in try parse(text, variable: "HTTP_PROXY") },
            bypass: bypass)
    }

    /// The proxy for `url`, or nil to connect directly.
    public func proxy(for url: URL) -> Proxy? {
        guard let host = url.host?.lowercased() else { return nil }
        let proxy = url.scheme?.lowercased() == "https" ? https : http
        guard let proxy else { return nil }
        if Self.isLoopback(host) || bypasses(host: host, port: url.port) { return nil }
        return proxy
    }

    func bypasses(host: String, port: Int?) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for entry in bypass {
            if entry == "*" { return true }
            var pattern = entry
            if let colon = pattern.lastIndex(of: ":"), !pattern.contains("]"), pattern.filter({ $0 == ":" }).count == 1 {
                // "host:port" applies to that port only.
                guard let wanted = Int(pattern[pattern.index(after: colon)...]), wanted == port else { continue }
                pattern = String(pattern[..<colon])
            }
            pattern = pattern.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if pattern.hasPrefix("*.") { pattern.removeFirst() }
            if pattern.hasPrefix(".") {
                if bare.hasSuffix(pattern) || bare == String(pattern.dropFirst()) { return true }
            } else if bare == pattern || bare.hasSuffix("." + pattern) {
                return true
            }
        }
        return false
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare.hasPrefix("127.")
    }

    static func parse(_ text: String, variable: String) throws(APIError) -> Proxy {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else {
            throw .invalidRequest("\(variable) is not a proxy URL like http://proxy.example:3128.")
        }
        guard components.scheme?.lowercased() == "http" else {
            throw .invalidRequest("\(variable) must be an http:// proxy; Roster tunnels https through it with CONNECT.")
        }
        return Proxy(
            host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: components.port ?? 80,
            username: components.user?.removingPercentEncoding, password: components.password?.removingPercentEncoding)
    }
}
