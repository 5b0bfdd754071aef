import Foundation

/// One call of an HTTP API, described as data. A conforming type says what to send; building
/// the actual request against a base URL is shared here, so every endpoint encodes paths and
/// queries the same way.
public protocol Endpoint: Sendable {
    var method: HTTPMethod { get }
    /// Path segments below the base URL, unencoded: `["api", "v1", "users", id]`.
    /// Each segment is percent-encoded on its own, so an id holding "/" stays one segment.
    var pathSegments: [String] { get }
    /// Query parameters, unencoded, in the order they are sent.
    var queryParameters: [(name: String, value: String)] { get }
    /// The JSON body, or nil for none.
    func encodeBody(with encoder: JSONEncoder) throws -> Data?
    /// Sent as `Idempotency-Key`: one random value per user action, the same on every retry
    /// of it, so a server that honours it applies the action once.
    var idempotencyKey: String? { get }
    /// The server feature (`HealthStatus.features`) that says it replays this endpoint's
    /// `Idempotency-Key`: only then is a POST whose answer was lost sent again.
    var idempotencyFeature: String { get }
    /// Headers that replace the defaults (`Accept`, `Content-Type`) or add to them (`If-Match`).
    var headers: [(name: String, value: String)] { get }
}

extension Endpoint {
    public var queryParameters: [(name: String, value: String)] { [] }
    public func encodeBody(with encoder: JSONEncoder) throws -> Data? { nil }
    public var idempotencyKey: String? { nil }
    public var idempotencyFeature: String { HealthStatus.idempotencyKeyFeature }
    public var headers: [(name: String, value: String)] { [] }

    /// The request this endpoint sends to a server at `baseURL`, which may carry a path
    /// prefix (`https://host/roster/`).
    public func makeRequest(baseURL: URL, encoder: JSONEncoder) throws(APIError) -> TransportRequest {
        // `encodedHost`: `host` decodes the name through ICU's IDNA tables on every request.
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
              components.scheme == "http" || components.scheme == "https", components.encodedHost != nil
        else { throw .invalidRequest("“\(baseURL.absoluteString)” is not an http or https URL.") }

        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + "/" + pathSegments.map(PercentEncoding.pathSegment).joined(separator: "/")
        let query = queryParameters
        components.percentEncodedQuery = query.isEmpty
            ? nil
            : query.map { PercentEncoding.queryComponent($0.name) + "=" + PercentEncoding.queryComponent($0.value) }
                .joined(separator: "&")
        components.fragment = nil
        guard let url = components.url else {
            throw .invalidRequest("Could not build a URL from “\(baseURL.absoluteString)”.")
        }

        var headers: HTTPHeaders = ["Accept": "application/json"]
        let body: Data?
        do {
            body = try encodeBody(with: encoder)
        } catch {
            throw .invalidRequest("Could not encode the request body: \(error)")
        }
        if body != nil { headers["Content-Type"] = "application/json" }
        if let idempotencyKey { headers[IdempotencyKey.header] = idempotencyKey }
        for field in self.headers { headers[field.name] = field.value }
        return TransportRequest(method: method, url: url, headers: headers, body: body)
    }
}

/// Percent-encoding stricter than `URLComponents.queryItems`, which leaves "+", "&" and "="
/// alone; a server would read a literal "+" in a query as a space.
enum PercentEncoding {
    private static let unreserved: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))

    static func pathSegment(_ text: String) -> String { encode(text) }
    static func queryComponent(_ text: String) -> String { encode(text) }

    private static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
