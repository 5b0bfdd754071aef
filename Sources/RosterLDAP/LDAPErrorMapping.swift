import RosterKit
/// LDAP failures as the `APIError`s the app shows: a sentence, under the field it concerns
/// where the server names an attribute Roster models, never a bare result code.
enum LDAPErrorMapping {
    static func apiError(_ error: any Error, host: String, schema: LDAPSchema?) -> any Error {
        if error is CancellationError || error is APIError { return error }
        if case LDAPConnectError.tlsFailed(let cause)? = error as? LDAPConnectError {
            return APIError.insecureConnection(host: host, reason: "TLS failed (\(cause.diagnostic)). Trust the server's certificate with caFile, use ldaps://, or set \"startTLS\": false for a lab server")
        }
        guard let error = error as? LDAPResultError else { return APIError.transportFailed(String(describing: error)) }
        let said = error.diagnostic.isEmpty ? "" : ": \(error.diagnostic)"
        typealias Code = LDAPResultError
        switch error.code {
        case Code.serverDown, Code.connectError:
            return APIError.cannotConnect(host: host)
        case Code.timeout:
            return APIError.timedOut
        case Code.invalidCredentials:
            return APIError.unauthorized(ErrorBody(code: "invalid_credentials", message: "The server refused the bind DN or password."))
        case Code.confidentialityRequired, Code.strongerAuthRequired:
            return APIError.insecureConnection(host: host, reason: "the server requires an encrypted connection (StartTLS or ldaps)")
        case Code.insufficientAccess:
            return APIError.forbidden(ErrorBody(code: "insufficient_access", message: "The directory does not allow this account to do that\(said)."))
        case Code.noSuchObject:
            return APIError.notFound(ErrorBody(code: "no_such_object", message: "That entry is no longer in the directory."))
        case Code.alreadyExists:
            return APIError.conflict(ErrorBody(
                code: "already_exists", message: "An entry with this name already exists in the directory.",
                fields: [FieldError(field: "userName", message: "is already taken")]))
        case Code.constraintViolation, Code.invalidSyntax, Code.attributeOrValueExists, Code.noSuchAttribute:
            return APIError.validationFailed(ErrorBody(
                code: "constraint_violation", message: "The directory refused a value\(said).",
                fields: field(in: error.diagnostic, schema: schema).map { [FieldError(field: $0, message: "was refused by the directory\(said)")] }))
        case Code.objectClassViolation, Code.namingViolation, Code.invalidDNSyntax:
            return APIError.validationFailed(ErrorBody(code: "schema_violation", message: "The entry would break the directory's schema\(said)."))
        case Code.busy, Code.unavailable:
            return APIError.serviceUnavailable(retryAfter: nil, ErrorBody(code: "unavailable", message: "The directory server is busy or unavailable\(said)."))
        case Code.unwillingToPerform:
            return APIError.badRequest(ErrorBody(code: "unwilling_to_perform", message: "The directory would not do this\(said)."))
        case Code.notAllowedOnNonLeaf:
            return APIError.conflict(ErrorBody(code: "not_leaf", message: "The entry has entries below it; the directory only removes leaves."))
        case Code.sizeLimitExceeded:
            return APIError.badRequest(ErrorBody(code: "size_limit", message: "The directory answers with fewer entries than asked for; narrow the search."))
        default:
            return APIError.unexpectedStatus(status: Int(error.code), ErrorBody(
                code: "ldap_error", message: "The directory refused the \(error.operation)\(said.isEmpty ? "." : said + ".")"))
        }
    }

    /// The form field an attribute named in the server's message belongs to.
    static func field(in diagnostic: String, schema: LDAPSchema?) -> String? {
        let text = diagnostic.lowercased()
        guard let schema else { return nil }
        let candidates: [(String, String)] = [(schema.emailAttribute, "email"), (schema.loginAttribute, "userName"),
                                               (schema.nameAttribute, "name"), ("cn", "name"), ("sn", "name")]
        return candidates.first { text.contains($0.0.lowercased()) }?.1
    }
}
