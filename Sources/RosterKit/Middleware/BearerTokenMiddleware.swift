/// Adds `Authorization: Bearer <token>` to every request. When the server answers 401 and the
/// token comes from a file or a command, reads it once more and sends the request once more
/// with the new token (a 401 means the server did nothing, so this is safe for any method).
/// A second 401 is the answer: there is no loop.
public struct BearerTokenMiddleware: ClientMiddleware {
    private let tokens: TokenProvider

    public init(token: String) {
        self.tokens = TokenProvider(.literal(token, origin: "token"))
    }

    public init(tokens: TokenProvider) {
        self.tokens = tokens
    }

    public func intercept(_ request: TransportRequest, next: NextHandler) async throws -> TransportResponse {
        let token = try await tokens.current()
        let response = try await next(Self.authorized(request, token))
        guard response.status == 401, let fresh = try await tokens.refresh(rejected: token) else { return response }
        return try await next(Self.authorized(request, fresh))
    }

    private static func authorized(_ request: TransportRequest, _ token: String) -> TransportRequest {
        var request = request
        if !token.isEmpty { request.headers["Authorization"] = "Bearer \(token)" }
        return request
    }
}
