/// Who is making the writes of the current request, for the audit log: set around the
/// handler by `BearerAuthMiddleware` once the token is accepted, and read by the write rules
/// inside the write's transaction (task-local values follow the request into it).
struct AuditActor: Sendable, Equatable {
    /// The token's name (`bootstrap` for --token).
    var token: String
    /// The peer's address, and the client's `User-Agent` after it (e.g. "roster/0.9").
    var client: String
    /// The request's `X-Request-ID` when it sent a usable one, else the server's own id.
    var requestID: String
    /// "api" or "scim".
    var via: String

    @TaskLocal static var current: AuditActor?
}
