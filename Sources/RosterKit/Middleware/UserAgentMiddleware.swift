/// Names the client in `User-Agent`, so server logs can tell Roster from other callers.
public struct UserAgentMiddleware: ClientMiddleware {
    public let userAgent: String

    public init(userAgent: String = "Roster/\(RosterVersion.current)") {
        self.userAgent = userAgent
    }

    public func intercept(_ request: TransportRequest, next: NextHandler) async throws -> TransportResponse {
        var request = request
        request.headers["User-Agent"] = userAgent
        return try await next(request)
    }
}

public enum RosterVersion {
    public static let current = "0.1.0"
}
