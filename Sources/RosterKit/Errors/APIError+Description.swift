import Foundation

extension APIError: LocalizedError {
    /// One sentence a person understands, in the server's words where it gave some.
    public var errorDescription: String? {
        switch self {
        case .offline:
            return "You are offline: there is no network connection."
        case .cannotConnect(let host):
            return "Could not connect to the server at \(host)."
        case .timedOut:
            return "The server did not answer in time."
        case .connectionLost:
            return "The connection to the server was lost."
        case .responseTooLarge(let limit):
            return "The server sent more data than Roster accepts (over \(limit / 1024) KiB)."
        case .transportFailed(let detail):
            return "The request failed: \(Self.sentence(detail))"
        case .invalidRequest(let detail):
            return "Roster could not build the request: \(Self.sentence(detail))"
        case .insecureConnection(let host, let reason):
            return "Could not make a secure connection to \(host): \(Self.sentence(reason))"
        case .proxyFailed(let detail):
            return "The proxy failed: \(Self.sentence(detail))"
        case .tokenUnavailable(let detail):
            return "No token: \(Self.sentence(detail))"
        case .createOutcomeUnknown(let existing):
            guard let existing else {
                return "The server did not answer, and no user with this email exists yet: the user was probably not created."
            }
            return "The server did not answer, but a user with this email now exists (\(existing.name), created \(ISO8601Timestamp.format(existing.createdAt))): most likely this request created them."
        case .badRequest(let body):
            return body?.message ?? "The server did not understand the request."
        case .unauthorized(let body):
            return body?.message ?? "The server did not accept the access token."
        case .forbidden(let body):
            return body?.message ?? "This token is not allowed to do that."
        case .notFound(let body):
            return body?.message ?? "That user no longer exists."
        case .conflict(let body):
            return body?.message ?? "That conflicts with another user."
        case .preconditionFailed:
            return "Someone changed this user on the server since you opened it."
        case .notImplemented(let body):
            return body?.message ?? "The server does not support this."
        case .payloadTooLarge(let body):
            return body?.message ?? "The request was too large for the server."
        case .unsupportedMediaType(let body):
            return body?.message ?? "The server did not accept the request's format."
        case .validationFailed(let body):
            return body?.message ?? "Some fields are not valid."
        case .rateLimited(let delay, let body):
            return body?.message ?? "The server is busy with too many requests\(Self.waitPhrase(delay))."
        case .serviceUnavailable(let delay, let body):
            return body?.message ?? "The server is temporarily unavailable\(Self.waitPhrase(delay))."
        case .serverError(let status, let body):
            return body?.message ?? "The server failed to handle the request (HTTP \(status))."
        case .unexpectedStatus(let status, let body):
            return body?.message ?? "The server answered with an unexpected status (HTTP \(status))."
        case .decodingFailed(let failure):
            let field = failure.path.isEmpty ? "its body" : "the field “\(failure.path)”"
            return "The server's answer could not be read: \(field) \(failure.reason)."
        case .unsuccessfulResponse(let body):
            return body?.message ?? "The server reported a failure without saying why."
        case .missingData:
            return "The server's answer had no data."
        }
    }

    /// What the person can do about it.
    public var recoverySuggestion: String? {
        switch self {
        case .offline, .connectionLost:
            return "Check the network, then retry."
        case .cannotConnect:
            return "Check that the server is running and the address is right (--server or ROSTER_SERVER), then retry."
        case .serviceUnavailable where isQueryTooSlow:
            return "Type more characters, or narrow the list with a filter."
        case .timedOut, .rateLimited, .serviceUnavailable, .serverError, .transportFailed:
            return "Retry in a moment."
        case .unauthorized:
            return "Give a valid token with --token, ROSTER_TOKEN, tokenFile or tokenCommand; roster --check tests it."
        case .insecureConnection:
            return "If the server uses a private certificate authority, set caFile in the configuration to its certificate (PEM); roster --check shows the certificate."
        case .proxyFailed:
            return "Check HTTPS_PROXY, HTTP_PROXY and NO_PROXY; roster --check shows the proxy used."
        case .tokenUnavailable:
            return "Fix tokenFile or tokenCommand in the configuration; roster --check runs it."
        case .createOutcomeUnknown(let existing):
            return existing == nil
                ? "Refresh the list; if the user is still missing, submit again."
                : "Submitting again would be refused as a duplicate: open the user found instead."
        case .forbidden:
            return "Ask an administrator for a token with more rights."
        case .validationFailed, .conflict:
            return "Correct the highlighted fields and submit again."
        case .notFound:
            return "Refresh the list to see the current users."
        case .preconditionFailed:
            return "Refresh to see the server's version, then make your change again."
        case .notImplemented:
            return nil
        case .responseTooLarge, .decodingFailed, .unsuccessfulResponse, .missingData, .unexpectedStatus:
            return "The server may not speak Roster's API version; the log has the details."
        case .invalidRequest, .badRequest, .payloadTooLarge, .unsupportedMediaType:
            return nil
        }
    }

    /// The text with a full stop at the end, for details that come from elsewhere.
    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") || text.hasSuffix("!") || text.hasSuffix("?") ? text : text + "."
    }

    private static func waitPhrase(_ delay: Duration?) -> String {
        guard let delay else { return "" }
        let seconds = delay.components.seconds
        return seconds == 1 ? "; it asks to wait 1 second" : "; it asks to wait \(seconds) seconds"
    }
}
