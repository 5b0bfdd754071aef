import Hummingbird
import Logging
import RosterKit

/// One log line per request: method, path, status, duration. The path is logged without its
/// query (searches are personal data) and no header is logged, so the token never is.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        context.logger.debug("\(request.method) \(request.uri.path) started")
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: started, logger: context.logger)
            return response
        } catch {
            // Only errors the envelope middleware could not turn into an answer get here.
            log(request, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started, logger: context.logger)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since started: ContinuousClock.Instant, logger: Logger) {
        let elapsed = ContinuousClock.now - started
        let microseconds = elapsed.nanoseconds / 1000
        logger.info("\(request.method) \(request.uri.path) \(status)", metadata: [
            "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(status)",
            "duration_ms": "\(Double(microseconds) / 1000)",
        ])
    }
}
