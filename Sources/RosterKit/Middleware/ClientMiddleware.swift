/// The next step of the request pipeline: the remaining middleware, then the transport.
public typealias NextHandler = @Sendable (TransportRequest) async throws -> TransportResponse

/// A layer of the onion around the transport: it sees each request on the way out and its
/// response (or error) on the way back, and decides whether and how to call `next`.
/// Every retry attempt passes through every middleware again.
public protocol ClientMiddleware: Sendable {
    func intercept(_ request: TransportRequest, next: NextHandler) async throws -> TransportResponse
}

extension Array where Element == any ClientMiddleware {
    /// The whole pipeline: the first middleware is the outermost layer.
    func wrapping(_ transport: any HTTPTransport) -> NextHandler {
        var handler: NextHandler = { try await transport.send($0) }
        for middleware in reversed() {
            let next = handler
            handler = { try await middleware.intercept($0, next: next) }
        }
        return handler
    }
}
