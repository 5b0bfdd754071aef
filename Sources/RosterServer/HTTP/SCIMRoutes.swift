import Foundation
import Hummingbird

/// `/scim/v2/…`: every method on every path under it goes to `SCIMService`, which routes it
/// itself (Bulk runs its operations through the same routing).
enum SCIMRoutes {
    static let prefix = "/scim/v2"

    /// - Parameter secure: whether this server itself serves HTTPS (`--tls-cert`).
    static func add(to router: Router<RosterRequestContext>, service: SCIMService, secure: Bool = false) {
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("\(prefix)/**", method: method) { request, _ in
                try await respond(to: request, service: service, secure: secure)
            }
        }
    }

    static func isSCIM(_ path: String) -> Bool {
        path == prefix || path.hasPrefix(prefixAndSlash)
    }

    /// Made once: every call asks `isSCIM` (the token check), most of them twice.
    private static let prefixAndSlash = prefix + "/"

    /// The discovery endpoints, which need no token: they describe the service, not the directory.
    static func isDiscovery(_ path: String) -> Bool {
        let rest = path.dropFirst(prefix.count + 1)
        return ["ServiceProviderConfig", "ResourceTypes", "Schemas"].contains { rest == $0 || rest.hasPrefix($0 + "/") }
    }

    /// Where clients reach the endpoint, for `meta.location` and `$ref`: the request's host, or
    /// what a TLS-terminating proxy says in `X-Forwarded-Proto` and `X-Forwarded-Host`;
    /// https when this server serves TLS itself.
    static func baseURL(of request: Request, secure: Bool = false) -> String {
        func header(_ name: String) -> String? {
            request.headers.first { $0.name.canonicalName == name }?.value
        }
        let scheme = secure || header("x-forwarded-proto")?.lowercased() == "https" ? "https" : "http"
        let host = header("x-forwarded-host") ?? request.head.authority ?? "localhost"
        return "\(scheme)://\(host)\(prefix)"
    }

    /// The query's parameters, the first of each name, with "+" read as a space as form
    /// encoding writes it (Python's SCIM clients send `filter=userName+eq+%22x%22`).
    static func queryParameters(_ query: String?) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decoded(parts[0])
            if parameters[name] == nil { parameters[name] = parts.count == 2 ? decoded(parts[1]) : "" }
        }
        return parameters
    }

    private static func respond(to request: Request, service: SCIMService, secure: Bool) async throws -> Response {
        let path = request.uri.path.dropFirst(prefix.count).split(separator: "/").map { segment in
            String(segment).removingPercentEncoding ?? String(segment)
        }
        let query = queryParameters(request.uri.query)
        var body: SCIMValue?
        // Discovery takes no body: its 405 comes before any 415.
        if [.post, .put, .patch].contains(request.method), !isDiscovery(request.uri.path) {
            body = try SCIMJSONParser.parse(try await SCIMBody.read(request))
        }
        let scimRequest = SCIMRequest(
            method: request.method, path: path, query: query,
            ifMatch: request.headers[.ifMatch], ifNoneMatch: request.headers[.ifNoneMatch], body: body,
            baseURL: baseURL(of: request, secure: secure))
        let answer = try await service.handle(scimRequest)
        return SCIMResponse.make(answer.body, status: answer.status, headers: answer.headers)
    }
}
