import Hummingbird

/// The scope each protected call needs: SCIM's endpoints `scim`; the audit log `admin`; under
/// `/api/v1` otherwise, reading `read` and every other method `write`. The OpenAPI document declares the
/// same per operation (a test checks they agree).
enum RequiredScope {
    static func of(method: HTTPRequest.Method, path: String) -> TokenScope {
        if SCIMRoutes.isSCIM(path) { return .scim }
        if path == "/api/v1/audit" || path.hasPrefix("/api/v1/audit/") { return .admin }
        return method == .get || method == .head ? .read : .write
    }
}
