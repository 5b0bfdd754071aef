import Foundation
import Hummingbird
import Logging
import RosterKit

/// The router: every path of the wire contract and the SCIM endpoint, behind the middleware that logs each request,
/// gives every error its envelope, checks the token and injects faults, in that order.
enum Routes {
    /// - Parameter scimStore: the store SCIM runs on: `store` itself, on either backend.
    static func makeRouter(
        store: any DirectoryStore, scimStore: any SCIMStore, tokenStore: (any TokenStore)? = nil, auditLog: (any AuditLog)? = nil,
        configuration: ServerConfiguration, openAPIDocument: Data, logger: Logger = UserAPIServer.silentLogger
    ) -> Router<RosterRequestContext> {
        let router = Router(context: RosterRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: ErrorEnvelopeMiddleware())
        router.add(middleware: BearerAuthMiddleware(
            authority: TokenAuthority(bootstrapToken: configuration.token, store: tokenStore, now: configuration.now, logger: logger),
            limiter: GuessLimiter(logger: logger)))
        if configuration.faults.isEnabled {
            router.add(middleware: FaultInjectionMiddleware(faults: configuration.faults))
        }

        let cacheEntries = configuration.listCacheEntries
        let listCache = cacheEntries > 0 ? ListResponseCache(maximumEntries: cacheEntries) : nil
        let users = UserHandlers(store: store, listCache: listCache, now: configuration.now)
        router.get("/api/v1/users", use: users.list)
        router.post("/api/v1/users", use: users.create)
        router.get("/api/v1/users/:id", use: users.get)
        router.put("/api/v1/users/:id", use: users.update)
        router.delete("/api/v1/users/:id", use: users.delete)

        let groups = GroupHandlers(store: store, now: configuration.now)
        router.get("/api/v1/groups", use: groups.list)
        router.post("/api/v1/groups", use: groups.create)
        router.get("/api/v1/groups/:id", use: groups.get)
        router.put("/api/v1/groups/:id", use: groups.update)
        router.delete("/api/v1/groups/:id", use: groups.delete)
        router.get("/api/v1/groups/:id/members", use: groups.members)
        router.post("/api/v1/groups/:id/members", use: groups.changeMembers)
        router.put("/api/v1/groups/:id/members/:user_id", use: groups.addMember)
        router.delete("/api/v1/groups/:id/members/:user_id", use: groups.removeMember)

        if let auditLog {
            router.get("/api/v1/audit", use: AuditHandlers(log: auditLog).list)
        }

        SCIMRoutes.add(to: router, service: SCIMService(store: scimStore, now: configuration.now), secure: configuration.tls != nil)

        let health = JSONResponse.make(APIResponse.success(HealthStatus(status: "ok", version: RosterVersion.current, features: [HealthStatus.idempotencyKeyFeature, HealthStatus.groupsFeature, HealthStatus.groupIdempotencyKeyFeature, HealthStatus.auditFeature])))
        router.get("/api/v1/health") { _, _ in health }

        let document = openAPIDocument
        router.get("/openapi.json") { _, _ in JSONResponse.raw(document) }

        if configuration.benchmarkRoutes {
            let floor = FloorRoute()
            router.get("/api/v1/_bench/floor", use: floor.respond)
        }
        return router
    }
}
