import Hummingbird
import Logging

/// Turns every failure below it into an answer with the error envelope: the API's own
/// problems as they are, the router's "not found" into 404 or 405 (see `RouteTable`), a
/// status error from Hummingbird into its status, and anything else into a logged 500.
struct ErrorEnvelopeMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as APIProblem {
            return problem.response()
        } catch let error as any HTTPResponseError where error.status == .notFound {
            let path = request.uri.path
            guard let allowed = RouteTable.allowedMethods(forPath: path) else {
                return APIProblem.noRoute(path).response()
            }
            return APIProblem.methodNotAllowed(request.method.rawValue, allowed: allowed).response()
        } catch let error as any HTTPResponseError {
            return APIProblem.status(error.status).response()
        } catch {
            context.logger.error("request failed", metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(error)",
            ])
            return APIProblem.internalError.response()
        }
    }
}
