/// The HTTP methods the API uses.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case head = "HEAD"

    /// Whether sending the request twice has the same effect as once, so a retry is safe.
    /// POST creates a new resource each time and is never retried.
    public var isIdempotent: Bool {
        switch self {
        case .get, .put, .delete, .head: true
        case .post, .patch: false
        }
    }
}
