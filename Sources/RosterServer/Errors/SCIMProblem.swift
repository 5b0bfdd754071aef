import Hummingbird
import RosterKit

/// An error answer of the SCIM endpoint (RFC 7644 section 3.12): the status, as a number and
/// as the body's string, the `scimType` where the RFC defines one, and a detail a person can read.
struct SCIMProblem: Error, Equatable {
    var status: HTTPResponse.Status
    var scimType: String?
    var detail: String
    var headers: HTTPFields = [:]

    var body: SCIMValue {
        var object = SCIMObject([
            "schemas": .array([.string(SCIMSchemas.error)]),
            "status": .string(String(status.code)),
        ])
        if let scimType { object["scimType"] = .string(scimType) }
        object["detail"] = .string(detail)
        return .object(object)
    }

    func response() -> Response {
        SCIMResponse.make(body, status: status, headers: headers)
    }
}

extension SCIMProblem {
    static func invalidFilter(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .badRequest, scimType: "invalidFilter", detail: detail)
    }

    static func invalidSyntax(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .badRequest, scimType: "invalidSyntax", detail: detail)
    }

    static func invalidValue(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .badRequest, scimType: "invalidValue", detail: detail)
    }

    static func invalidPath(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .badRequest, scimType: "invalidPath", detail: detail)
    }

    static func noTarget(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .badRequest, scimType: "noTarget", detail: detail)
    }

    static func mutability(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .badRequest, scimType: "mutability", detail: detail)
    }

    static func uniqueness(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .conflict, scimType: "uniqueness", detail: detail)
    }

    static func tooMany(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .badRequest, scimType: "tooMany", detail: detail)
    }

    static func invalidVersion(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .badRequest, scimType: "invalidVers", detail: detail)
    }

    static func sensitive(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .forbidden, scimType: "sensitive", detail: detail)
    }

    static func notFound(_ detail: String) -> SCIMProblem {
        SCIMProblem(status: .notFound, detail: detail)
    }

    static let userNotFound = notFound("No user has that id.")
    static let groupNotFound = notFound("No group has that id.")

    /// `If-Match` named a version the resource no longer has (RFC 7644 section 3.14).
    static let preconditionFailed = SCIMProblem(
        status: .preconditionFailed,
        detail: "The resource changed since the version in If-Match; read it again and reapply the change.")

    static let payloadTooLarge = SCIMProblem(
        status: .contentTooLarge, detail: "The request body is over \(SCIMBody.maximumBytes / 1024) KiB.")

    static let unsupportedMediaType = SCIMProblem(
        status: .unsupportedMediaType,
        detail: "The request body must be JSON, sent with “Content-Type: application/scim+json” or “application/json”.")

    static func methodNotAllowed(_ method: String, allowed: [String]) -> SCIMProblem {
        let allow = allowed.joined(separator: ", ")
        return SCIMProblem(
            status: .methodNotAllowed, detail: "\(method.prefix(20)) is not allowed here; use \(allow).", headers: [.allow: allow])
    }

    /// The Roster API's problems (401 from the token check, a 500) as SCIM errors, with their headers.
    init(_ problem: APIProblem) {
        self.init(status: problem.status, detail: problem.message, headers: problem.headers)
    }
}
