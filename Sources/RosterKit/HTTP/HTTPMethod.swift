/// The HTTP methods the API uses.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case head = "HEAD"

    /// Whether the request changes nothing on the server (RFC 9110 section 9.2.1).
    public var isSafe: Bool {
        self == .get || self == .head
    }

    /// Whether sending the request twice has the same effect as once (RFC 9110 section 9.2.2),
    /// so a retry cannot do harm. POST and PATCH are not: a POST retried without an
    /// idempotency key the server honours could create the user twice.
    public var isIdempotent: Bool {
        switch self {
        case .get, .put, .delete, .head: true
        case .post, .patch: false
        }
    }
}
