import Foundation

/// Removes secrets from what is logged: credentials in headers and tokens in query strings.
public enum Redaction {
    public static let placeholder = "<redacted>"

    static let sensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
    ]

    /// Query parameter names whose values are secrets, matched case-insensitively as substrings
    /// ("access_token", "api_key", "client_secret"…).
    static let sensitiveQueryFragments = ["token", "key", "secret", "password", "passwd", "auth", "signature", "session"]

    public static func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { field in
            (field.name, sensitiveHeaders.contains(field.name.lowercased()) ? placeholder : field.value)
        })
    }

    /// The URL as text with the values of sensitive query parameters and any user:password
    /// replaced.
    public static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return placeholder }
        components.user = nil
        components.password = nil
        let query = components.percentEncodedQuery
        components.percentEncodedQuery = nil
        components.fragment = nil
        guard let base = components.string else { return placeholder }
        guard let query else { return base }
        // Built as text: the placeholder's "<>" may not go through URLComponents.
        let redactedQuery = query.split(separator: "&", omittingEmptySubsequences: false)
            .map { pair -> String in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, isSensitive(queryName: String(parts[0])) else { return String(pair) }
                return parts[0] + "=" + placeholder
            }
            .joined(separator: "&")
        return base + "?" + redactedQuery
    }

    static func isSensitive(queryName: String) -> Bool {
        // Decoded only when encoded: removingPercentEncoding goes through CoreFoundation, and
        // its first call cost every start half a millisecond of the runtime's type look-ups.
        let decoded = queryName.contains("%") ? queryName.removingPercentEncoding ?? queryName : queryName
        let name = decoded.lowercased()
        return sensitiveQueryFragments.contains { name.contains($0) }
    }
}
