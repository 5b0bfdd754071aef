import Hummingbird

/// Requires `Authorization: Bearer <token>` on every `/api/v1` call except health, and every
/// SCIM call except discovery: a user directory is personal data. A missing or unknown token is
/// a 401 with `WWW-Authenticate`; a good token without the call's scope (`RequiredScope`) a 403
/// naming it; an address that sent too many bad tokens a 429 (`GuessLimiter`). The token's
/// identity goes on in the context, and as `AuditActor.current` to the writes the call makes.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = RosterRequestContext
    let authority: TokenAuthority
    let limiter: GuessLimiter

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard Self.isProtected(path) else { return try await next(request, context) }
        // The address as text only when it is needed: the limiter asks for it only while some
        // address has sent bad tokens, and a read is not audited.
        if let wait = limiter.wait(for: context.clientAddress) { throw APIProblem.tooManyBadTokens(retryAfter: wait) }
        guard let header = request.headers[.authorization], let secret = Self.secret(in: header) else { throw APIProblem.unauthorized }
        // Nothing below allocates on a read with a good token: this runs on every call.
        guard let identity = try await authority.identify(secret) else {
            if let wait = limiter.failed(from: context.clientAddress) { throw APIProblem.tooManyBadTokens(retryAfter: wait) }
            throw APIProblem.unauthorized
        }
        limiter.succeeded(from: context.clientAddress)
        let scope = RequiredScope.of(method: request.method, path: path)
        guard identity.scopes.contains(scope) else { throw APIProblem.missingScope(scope, token: identity.name) }
        // Reads change nothing: only a write needs its author for the audit log.
        if request.method == .get || request.method == .head { return try await next(request, context) }
        let actor = AuditActor(
            token: identity.name, client: Self.client(address: context.clientAddress, userAgent: request.headers[.userAgent]),
            requestID: Self.requestID(
                request.headers.first { $0.name.canonicalName == "x-request-id" }?.value,
                else: context.logger[metadataKey: "hb.request.id"]?.description ?? Self.randomID()),
            via: SCIMRoutes.isSCIM(path) ? "scim" : "api")
        return try await AuditActor.$current.withValue(actor) { try await next(request, context) }
    }

    /// The address, and the `User-Agent` (printable ASCII, at most 100 characters) after it.
    static func client(address: String, userAgent: String?) -> String {
        guard let agent = userAgent.map({ String($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(100)) }),
              !agent.isEmpty else { return address }
        return "\(address) \(agent)"
    }

    /// 16 hex digits, where the logger carries no request id of Hummingbird's.
    static func randomID() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The client's `X-Request-ID` when it is 1 to 128 printable ASCII characters, else the server's id.
    static func requestID(_ given: String?, else own: String) -> String {
        guard let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return own }
        return given
    }

    /// `/api/v1` but health, and `/scim/v2` (the same token) but its discovery endpoints.
    static func isProtected(_ path: String) -> Bool {
        if SCIMRoutes.isSCIM(path) { return !SCIMRoutes.isDiscovery(path) }
        return (path == "/api/v1" || path.hasPrefix("/api/v1/")) && path != "/api/v1/health"
    }

    /// The token after "Bearer " (the scheme in any case), as the header's own bytes; nil for
    /// another scheme or none.
    static func secret(in header: String) -> Substring.UTF8View? {
        let utf8 = header.utf8
        guard utf8.count > bearer.count, zip(utf8, bearer).allSatisfy({ $0 | 0x20 == $1 || $0 == $1 }) else { return nil }
        return header[header.utf8.index(header.startIndex, offsetBy: bearer.count)...].utf8
    }

    private static let bearer: [UInt8] = Array("bearer ".utf8)
}
