import Hummingbird

/// Requires `Authorization: Bearer <token>` on every `/api/v1` call except health, and every
/// SCIM call except discovery: a user directory is personal data. A missing or wrong token is a 401 with `WWW-Authenticate`.
struct BearerAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    private let token: [UInt8]

    init(token: String) {
        self.token = Array(token.utf8)
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard Self.isProtected(path) else { return try await next(request, context) }
        guard let header = request.headers[.authorization], accepts(header) else { throw APIProblem.unauthorized }
        return try await next(request, context)
    }

    /// `/api/v1` but health, and `/scim/v2` (the same token) but its discovery endpoints.
    static func isProtected(_ path: String) -> Bool {
        if SCIMRoutes.isSCIM(path) { return !SCIMRoutes.isDiscovery(path) }
        return (path == "/api/v1" || path.hasPrefix("/api/v1/")) && path != "/api/v1/health"
    }

    /// "Bearer" in any case, then the token, compared in constant time so the answer's timing
    /// says nothing about how much of a guess was right.
    private func accepts(_ header: String) -> Bool {
        let utf8 = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        guard utf8.count == scheme.count + token.count,
              zip(utf8.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 || $0 == $1 })
        else { return false }
        var difference: UInt8 = 0
        for (given, expected) in zip(utf8.dropFirst(scheme.count), token) {
            difference |= given ^ expected
        }
        return difference == 0
    }
}
