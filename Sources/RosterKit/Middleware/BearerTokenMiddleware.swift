/// Adds `Authorization: Bearer <token>` to every request.
public struct BearerTokenMiddleware: ClientMiddleware {
    private let token: @Sendable () async throws -> String?

    public init(token: String) {
        self.token = { token }
    }

    /// For a token that can change while the app runs (read from a file, refreshed).
    public init(tokenProvider: @escaping @Sendable () async throws -> String?) {
        self.token = tokenProvider
    }

    public func intercept(_ request: TransportRequest, next: NextHandler) async throws -> TransportResponse {
        var request = request
        if let token = try await token(), !token.isEmpty {
            request.headers["Authorization"] = "Bearer \(token)"
        }
        return try await next(request)
    }
}
