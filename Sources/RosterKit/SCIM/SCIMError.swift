import Foundation

/// A SCIM error body (RFC 7644 section 3.12) as the `ErrorBody` the app already shows, with a
/// field hint where the error names a field, so the form puts it under that field.
enum SCIMError {
    /// Nil when `body` is not a SCIM error.
    static func errorBody(from body: Data) -> ErrorBody? {
        guard let value = try? JSONValue(parsing: body),
              let schemas = value[attribute: "schemas"]?.arrayValue,
              schemas.contains(.string(SCIMSchemas.error))
        else { return nil }
        let scimType = value[attribute: "scimType"]?.stringValue
        let detail = value[attribute: "detail"]?.stringValue ?? ""
        // tooMany's detail rarely says what to do about it; the default message does.
        let message = detail.isEmpty ? defaultMessage(scimType)
            : scimType == "tooMany" ? "\(defaultMessage(scimType)) (\(detail))" : detail
        return ErrorBody(code: scimType ?? "scim_error", message: message, fields: fields(scimType: scimType, detail: detail))
    }

    /// Which form field a SCIM error is about.
    static func fields(scimType: String?, detail: String) -> [FieldError]? {
        let lowered = detail.lowercased()
        switch scimType {
        case "uniqueness":
            // Most services do not say which attribute; userName is what they key on (the form
            // shows it on SCIM services, and it follows the email unless typed over).
            if lowered.contains("email") { return [FieldError(field: "email", message: "This email is already taken.")] }
            return [FieldError(field: "userName", message: "This username is already taken.")]
        case "invalidValue", "invalidSyntax":
            for (attribute, field) in [("username", "userName"), ("email", "email"), ("displayname", "name"), ("name", "name")]
            where lowered.contains(attribute) {
                return [FieldError(field: field, message: detail)]
            }
            return nil
        default:
            return nil
        }
    }

    private static func defaultMessage(_ scimType: String?) -> String {
        switch scimType {
        case "uniqueness": "One of the values is already in use."
        case "tooMany": "The search matches more users than this service will list: narrow it (type more of a name or email)."
        case "invalidFilter": "The service did not accept the search."
        case "mutability": "The service does not allow changing that attribute."
        default: "The service refused the request."
        }
    }
}
