import Hummingbird
import Logging

/// Turns every failure below it into an answer with the error envelope: the API's own
/// problems as they are, the router's "not found" into 404 or 405 (see `RouteTable`), a
/// status error from Hummingbird into its status, a database out of reach into 503, and
/// anything else into a logged 500.
struct ErrorEnvelopeMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        // Under /scim/v2 every error is a SCIM error (RFC 7644 section 3.12), the token's 401 included.
        let scim = SCIMRoutes.isSCIM(path)
        func answer(_ problem: APIProblem) -> Response {
            scim ? SCIMProblem(problem).response() : problem.response()
        }
        do {
            return try await next(request, context)
        } catch let problem as SCIMProblem {
            return problem.response()
        } catch let problem as APIProblem {
            return answer(problem)
        } catch StoreError.databaseUnavailable {
            return answer(APIProblem.databaseUnavailable)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            guard let allowed = RouteTable.allowedMethods(forPath: path) else {
                return answer(APIProblem.noRoute(path))
            }
            return answer(APIProblem.methodNotAllowed(request.method.rawValue, allowed: allowed))
        } catch let error as any HTTPResponseError {
            return answer(APIProblem.status(error.status))
        } catch {
            context.logger.error("request failed", metadata: [
                "method": "\(request.method)", "path": "\(path)", "error": "\(error)",
            ])
            return answer(APIProblem.internalError)
        }
    }
}
