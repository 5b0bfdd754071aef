import Foundation

/// Everything that can go wrong talking to the user API, in terms a person can act on.
/// Cancellation is not here: a cancelled call throws `CancellationError` and is never shown.
public enum APIError: Error, Sendable, Equatable {
    // The request never got an HTTP answer.
    case offline
    case cannotConnect(host: String)
    case timedOut
    case connectionLost
    case responseTooLarge(limitBytes: Int)
    case transportFailed(String)
    case invalidRequest(String)
    /// TLS could not be set up: the certificate is not trusted, has the wrong name or expired.
    case insecureConnection(host: String, reason: String)
    /// The proxy named by HTTPS_PROXY or HTTP_PROXY refused or failed the tunnel.
    case proxyFailed(String)
    /// No token could be had from `tokenFile` or `tokenCommand`.
    case tokenUnavailable(String)
    /// A create whose answer was lost, sent to a server that does not replay idempotency
    /// keys, so it was not sent again. `existing` is what a lookup by email found afterwards.
    case createOutcomeUnknown(existing: User?)

    // The server answered with an error status.
    case badRequest(ErrorBody?)
    case unauthorized(ErrorBody?)
    case forbidden(ErrorBody?)
    case notFound(ErrorBody?)
    case conflict(ErrorBody?)
    /// 412: the resource changed on the server since it was read (its ETag no longer matches).
    case preconditionFailed(ErrorBody?)
    case payloadTooLarge(ErrorBody?)
    case unsupportedMediaType(ErrorBody?)
    case validationFailed(ErrorBody?)
    case rateLimited(retryAfter: Duration?, ErrorBody?)
    case serviceUnavailable(retryAfter: Duration?, ErrorBody?)
    case serverError(status: Int, ErrorBody?)
    /// 501: the server does not do this at all (a SCIM service without PATCH, filter or sort).
    case notImplemented(ErrorBody?)
    case unexpectedStatus(status: Int, ErrorBody?)

    // The server answered 2xx, but not with what the contract promises.
    case decodingFailed(DecodingFailure)
    case unsuccessfulResponse(ErrorBody?)
    case missingData

    /// Builds the error for a non-2xx status and whatever error body came with it.
    public static func forStatus(_ status: Int, body: ErrorBody?, retryAfter: Duration?) -> APIError {
        switch status {
        case 400: .badRequest(body)
        case 401: .unauthorized(body)
        case 403: .forbidden(body)
        case 404: .notFound(body)
        case 409: .conflict(body)
        case 412: .preconditionFailed(body)
        case 413: .payloadTooLarge(body)
        case 415: .unsupportedMediaType(body)
        case 422: .validationFailed(body)
        case 429: .rateLimited(retryAfter: retryAfter, body)
        case 503: .serviceUnavailable(retryAfter: retryAfter, body)
        case 501: .notImplemented(body)
        case 500...599: .serverError(status: status, body)
        default: .unexpectedStatus(status: status, body)
        }
    }

    /// Whether this says nothing of which dialect the server speaks: no answer at all, a token
    /// refused, a server busy. Any other answer to a list (a 404, a body of another shape) may
    /// be a server of the other dialect (`RemoteDirectory`'s first list as last time).
    public var saysNothingOfTheDialect: Bool {
        switch self {
        case .offline, .cannotConnect, .timedOut, .connectionLost, .transportFailed, .invalidRequest, .insecureConnection,
             .proxyFailed, .tokenUnavailable, .unauthorized, .forbidden, .rateLimited, .serviceUnavailable, .createOutcomeUnknown:
            true
        case .responseTooLarge, .badRequest, .notFound, .conflict, .preconditionFailed, .payloadTooLarge, .unsupportedMediaType,
             .validationFailed, .serverError, .notImplemented, .unexpectedStatus, .decodingFailed, .unsuccessfulResponse, .missingData:
            false
        }
    }

    /// Whether the same request may succeed if sent again: transport failures, 5xx, 429 and
    /// 503 can; a request the server rejected (4xx) or could not be read will fail the same way,
    /// and so will a list roster-server stopped for running past its budget (it would only
    /// run that long again, for nothing).
    public var isRetryable: Bool {
        switch self {
        case .offline, .cannotConnect, .timedOut, .connectionLost, .transportFailed,
             .rateLimited, .serverError:
            true
        case .serviceUnavailable:
            !isQueryTooSlow
        case .responseTooLarge, .invalidRequest, .insecureConnection, .proxyFailed, .tokenUnavailable,
             .createOutcomeUnknown, .preconditionFailed, .notImplemented, .badRequest, .unauthorized, .forbidden, .notFound,
             .conflict, .payloadTooLarge, .unsupportedMediaType, .validationFailed,
             .unexpectedStatus, .decodingFailed, .unsuccessfulResponse, .missingData:
            false
        }
    }

    /// roster-server's 503 for a list whose query ran past its budget (a very short search of
    /// a huge directory): more characters or a filter answer, the same request does not.
    public var isQueryTooSlow: Bool {
        if case .serviceUnavailable(_, let body) = self { body?.code == "query_too_slow" } else { false }
    }

    /// Whether the server may have received and acted on the request although no answer came
    /// back: the request was sent (or may have been) and then time ran out or the connection
    /// broke. A failure to connect, or any HTTP answer, says for sure.
    public var requestMayHaveArrived: Bool {
        switch self {
        case .timedOut, .connectionLost, .transportFailed: true
        default: false
        }
    }

    /// The HTTP status, when the server answered.
    public var status: Int? {
        switch self {
        case .badRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .preconditionFailed: 412
        case .notImplemented: 501
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .validationFailed: 422
        case .rateLimited: 429
        case .serviceUnavailable: 503
        case .serverError(let status, _), .unexpectedStatus(let status, _): status
        default: nil
        }
    }

    /// The server's own error body, when it sent one.
    public var body: ErrorBody? {
        switch self {
        case .badRequest(let body), .unauthorized(let body), .forbidden(let body), .notFound(let body),
             .conflict(let body), .preconditionFailed(let body), .notImplemented(let body),
             .payloadTooLarge(let body), .unsupportedMediaType(let body),
             .validationFailed(let body), .unsuccessfulResponse(let body):
            body
        case .rateLimited(_, let body), .serviceUnavailable(_, let body),
             .serverError(_, let body), .unexpectedStatus(_, let body):
            body
        default:
            nil
        }
    }

    /// The per-field problems of a 409 or 422, for a form to show under its fields.
    public var fieldErrors: [FieldError] {
        body?.fields ?? []
    }

    /// How long the server asked us to wait before trying again (429, 503).
    public var retryAfter: Duration? {
        switch self {
        case .rateLimited(let delay, _), .serviceUnavailable(let delay, _): delay
        default: nil
        }
    }
}

/// Where and why a body could not be decoded. The raw body is kept for the log, not shown.
public struct DecodingFailure: Sendable, Equatable {
    /// The JSON path of the bad value, e.g. `data.items[3].email`; empty for the whole body.
    public var path: String
    public var reason: String
    /// The start of the body as received (at most `rawBodyLimit` bytes, lossily decoded).
    public var rawBody: String

    public static let rawBodyLimit = 2048

    public init(path: String, reason: String, rawBody: String) {
        self.path = path
        self.reason = reason
        self.rawBody = rawBody
    }

    public init(_ error: any Error, body: Data) {
        let snippet = String(decoding: body.prefix(Self.rawBodyLimit), as: UTF8.self)
        guard let decodingError = error as? DecodingError else {
            self.init(path: "", reason: String(describing: error), rawBody: snippet)
            return
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), reason: "is missing", rawBody: snippet)
        case .valueNotFound(_, let context):
            self.init(path: Self.path(context.codingPath), reason: "is null", rawBody: snippet)
        case .typeMismatch(let type, let context):
            self.init(path: Self.path(context.codingPath), reason: "is not a \(Self.jsonTypeName(type))", rawBody: snippet)
        case .dataCorrupted(let context):
            let reason = context.codingPath.isEmpty ? "is not valid JSON" : context.debugDescription
            self.init(path: Self.path(context.codingPath), reason: reason, rawBody: snippet)
        @unknown default:
            self.init(path: "", reason: String(describing: decodingError), rawBody: snippet)
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        var result = ""
        for key in keys {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return result
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Bool.Type: "boolean"
        case is Int.Type, is Double.Type, is Int64.Type: "number"
        default: "\(type)".lowercased()
        }
    }
}
