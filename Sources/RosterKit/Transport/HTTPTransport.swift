/// Sends one request and returns the whole response. The seam between the API client and the
/// network: the URLSession transport in production, a scripted one in tests.
///
/// A transport reports failures before any HTTP answer as `APIError` transport cases
/// (`.offline`, `.cannotConnect`, `.timedOut`, `.connectionLost`, `.responseTooLarge`,
/// `.transportFailed`) and a cancelled task as `CancellationError`. Any HTTP status, including
/// 4xx and 5xx, is a response, not an error.
public protocol HTTPTransport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
