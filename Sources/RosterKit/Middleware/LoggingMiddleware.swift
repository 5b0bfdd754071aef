import Foundation
import Logging

/// Logs each attempt: the request line and status at info, headers at trace. Everything passes
/// through `Redaction` first, so no token or cookie reaches a log file.
public struct LoggingMiddleware: ClientMiddleware {
    public let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func intercept(_ request: TransportRequest, next: NextHandler) async throws -> TransportResponse {
        let target = Redaction.url(request.url)
        logger.trace("request headers", metadata: ["headers": .string(Self.describe(Redaction.headers(request.headers)))])
        let started = ContinuousClock.now
        do {
            let response = try await next(request)
            let elapsed = ContinuousClock.now - started
            logger.info("\(request.method.rawValue) \(target) → \(response.status) in \(elapsed.millisecondsText) ms")
            logger.trace("response headers", metadata: ["headers": .string(Self.describe(Redaction.headers(response.headers)))])
            return response
        } catch is CancellationError {
            logger.debug("\(request.method.rawValue) \(target) cancelled")
            throw CancellationError()
        } catch {
            let elapsed = ContinuousClock.now - started
            logger.warning("\(request.method.rawValue) \(target) failed after \(elapsed.millisecondsText) ms: \(error)")
            throw error
        }
    }

    private static func describe(_ headers: HTTPHeaders) -> String {
        headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
    }
}
