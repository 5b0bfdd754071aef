import Hummingbird
import RosterKit

/// An answer other than success, as the wire contract spells it: a status, the error envelope,
/// and the headers that status requires. Handlers and middleware throw these; the envelope
/// middleware turns anything else into one too, so every error a client sees has the envelope.
struct APIProblem: Error, Equatable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var fields: [FieldError]?
    var headers: HTTPFields = [:]

    var body: ErrorBody {
        ErrorBody(code: code, message: message, fields: fields)
    }

    func response() -> Response {
        JSONResponse.make(APIResponse<EmptyPayload>.failure(body), status: status, headers: headers)
    }
}

extension APIProblem {
    static func badRequest(_ message: String, code: String = "bad_request") -> APIProblem {
        APIProblem(status: .badRequest, code: code, message: message)
    }

    static func badQuery(_ message: String) -> APIProblem {
        APIProblem(status: .badRequest, code: "bad_query", message: message)
    }

    static let unauthorized = APIProblem(
        status: .unauthorized, code: "unauthorized",
        message: "This call needs the header “Authorization: Bearer <token>” with the server's token.",
        headers: [.wwwAuthenticate: "Bearer"])

    /// A token that is good but lacks the scope this call needs; the body names the scope.
    static func missingScope(_ scope: TokenScope, token: String) -> APIProblem {
        APIProblem(
            status: .forbidden, code: "missing_scope",
            message: "The token “\(token)” lacks the “\(scope.rawValue)” scope this call needs.",
            fields: [FieldError(field: "scope", message: scope.rawValue)])
    }

    /// Too many bad tokens from this address (`GuessLimiter`).
    static func tooManyBadTokens(retryAfter seconds: Int) -> APIProblem {
        APIProblem(
            status: .tooManyRequests, code: "too_many_bad_tokens",
            message: "Too many bad tokens from this address; wait \(seconds) s before trying again.",
            headers: [.retryAfter: String(seconds)])
    }

    static let userNotFound = APIProblem(status: .notFound, code: "not_found", message: "No user has that id.")

    static func noRoute(_ path: String) -> APIProblem {
        APIProblem(status: .notFound, code: "not_found", message: "Nothing is at \(path.prefix(200)).")
    }

    static func methodNotAllowed(_ method: String, allowed: [String]) -> APIProblem {
        let allow = allowed.joined(separator: ", ")
        return APIProblem(
            status: .methodNotAllowed, code: "method_not_allowed",
            message: "\(method.prefix(20)) is not allowed here; use \(allow).", headers: [.allow: allow])
    }

    static let emailTaken = APIProblem(
        status: .conflict, code: "email_taken", message: "Another user already has that email.",
        fields: [FieldError(field: "email", message: "This email is already taken.")])

    static func badIdempotencyKey(_ message: String) -> APIProblem {
        APIProblem(status: .badRequest, code: "bad_idempotency_key", message: message)
    }

    static let idempotencyKeyReused = APIProblem(
        status: .unprocessableContent, code: "idempotency_key_reused",
        message: "This Idempotency-Key was already used with a different request body; send a new key for a new request.")

    /// A PUT whose `If-Match` names a version the user no longer has.
    static let userChanged = APIProblem(
        status: .preconditionFailed, code: "user_changed",
        message: "The user changed since the version in If-Match; read them again and reapply the change.")

    static let groupNotFound = APIProblem(status: .notFound, code: "not_found", message: "No group has that id.")

    static let groupNameTaken = APIProblem(
        status: .conflict, code: "name_taken", message: "Another group already has that name.",
        fields: [FieldError(field: "name", message: "This name is already taken.")])

    /// A membership change naming users that do not exist; `fields` has one entry per id.
    static func unknownUsers(_ fields: [FieldError]) -> APIProblem {
        APIProblem(
            status: .unprocessableContent, code: "unknown_users",
            message: fields.count == 1 ? "One id is no user's; nothing was changed." : "\(fields.count) ids are no user's; nothing was changed.",
            fields: fields)
    }

    static let payloadTooLarge = APIProblem(
        status: .contentTooLarge, code: "payload_too_large",
        message: "The request body is over \(JSONBody.maximumBytes / 1024) KiB.")

    static let unsupportedMediaType = APIProblem(
        status: .unsupportedMediaType, code: "unsupported_media_type",
        message: "The request body must be JSON, sent with “Content-Type: application/json”.")

    static func validationFailed(_ fields: [FieldError]) -> APIProblem {
        APIProblem(status: .unprocessableContent, code: "validation_failed", message: "Some fields are not valid.", fields: fields)
    }

    static let internalError = APIProblem(
        status: .internalServerError, code: "internal_error",
        message: "The server failed to answer; the failure is in its log.")

    static let injectedUnavailable = APIProblem(
        status: .serviceUnavailable, code: "unavailable",
        message: "The server is unavailable right now (injected fault); try again shortly.",
        headers: [.retryAfter: "1"])

    /// The database could not be reached or did not answer within the store's deadline
    /// (`PostgresDatabase.withConnection`); what had not committed was rolled back.
    static let databaseUnavailable = APIProblem(
        status: .serviceUnavailable, code: "database_unavailable",
        message: "The server’s database is unavailable or did not answer in time; try again shortly.",
        headers: [.retryAfter: "1"])

    /// A list whose query ran past the store's budget (`SQLiteStore.queryBudget`) and was stopped.
    /// No `Retry-After`: the same list would take as long again; a longer search would not.
    static func queryTooSlow(search: String?) -> APIProblem {
        let message = if let search, !search.isEmpty {
            "Searching for “\(search.prefix(20))” matches too much of the directory to answer in time; type more characters."
        } else {
            "This list took too long to answer; narrow it with a search or a filter."
        }
        return APIProblem(status: .serviceUnavailable, code: "query_too_slow", message: message)
    }

    /// For an error Hummingbird raised with a status of its own (e.g. an unreadable request).
    static func status(_ status: HTTPResponse.Status) -> APIProblem {
        APIProblem(status: status, code: "http_\(status.code)", message: status.reasonPhrase)
    }
}
