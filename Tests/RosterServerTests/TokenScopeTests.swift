import Foundation
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing

/// Named tokens on both backends: every OpenAPI operation allowed with the scope its
/// `security` names and refused (403 naming the scope) with each other scope; SCIM needs
/// `scim`; revocation seen by a second replica within a second; expiry; guessing slowed.
@Suite("Named tokens and scopes")
struct TokenScopeTests {
    /// One token per scope, made the way `roster-server token create` makes them.
    static func tokensByScope(_ server: TestServer) async throws -> [TokenScope: String] {
        var tokens: [TokenScope: String] = [:]
        for scope in TokenScope.allCases {
            tokens[scope] = try await TokenAdministration.create(
                database: server.database, name: "only-\(scope.rawValue)", scopes: [scope], lifetime: nil, logger: quietLogger).secret
        }
        return tokens
    }

    struct Operation: CustomStringConvertible {
        var method: HTTPMethod
        var path: String
        var scope: TokenScope
        var description: String { "\(method) \(path)" }
    }

    /// Every operation of the OpenAPI document that declares a scope.
    static func operations() throws -> [Operation] {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.load()) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [Operation] = []
        for (path, methods) in paths.sorted(by: { $0.key < $1.key }) {
            for (method, operation) in methods.sorted(by: { $0.key < $1.key }) {
                guard let operation = operation as? [String: Any], let security = operation["security"] as? [[String: [String]]],
                      let name = security.first?["bearer"]?.first, let scope = TokenScope(rawValue: name),
                      let httpMethod = HTTPMethod(rawValue: method.uppercased())
                else { continue }
                operations.append(Operation(method: httpMethod, path: path, scope: scope))
            }
        }
        return operations
    }

    @Test("Each OpenAPI operation is allowed with its scope and refused with every other, naming the scope", arguments: Backend.allCases)
    func scopeTable(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let tokens = try await Self.tokensByScope(server)
            let operations = try Self.operations()
            #expect(operations.count == 15, "every /api/v1 operation but health declares its scope: \(operations)")
            for operation in operations {
                // Fresh resources per operation: a delete allowed earlier must not turn later calls into 404s that hide a 403.
                let user = try await server.repository().createUser(UserDraft(name: "Scoped", email: "s-\(UUID().uuidString)@example.com"))
                let group = try await server.createGroup("group \(UUID().uuidString)")
                let path = operation.path.replacingOccurrences(of: "{id}", with: operation.path.hasPrefix("/api/v1/groups") ? group.id : user.id)
                    .replacingOccurrences(of: "{user_id}", with: user.id)
                let body: String? = switch (operation.method, operation.path) {
                case (.post, "/api/v1/users"), (.put, "/api/v1/users/{id}"):
                    #"{"name":"Scoped","email":"t-\#(UUID().uuidString)@example.com","role":"viewer","status":"active"}"#
                case (.post, "/api/v1/groups"), (.put, "/api/v1/groups/{id}"): #"{"name":"g-\#(UUID().uuidString)"}"#
                case (.post, "/api/v1/groups/{id}/members"): #"{"add":["\#(user.id)"]}"#
                default: nil
                }
                for scope in TokenScope.allCases {
                    var headers: HTTPHeaders = ["Authorization": "Bearer \(tokens[scope]!)"]
                    if body != nil { headers["Content-Type"] = "application/json" }
                    let answer = try await server.raw(operation.method, path, headers: headers, body: body.map { Data.json($0) })
                    if scope == operation.scope {
                        #expect((200..<300).contains(answer.status), "\(operation) with \(scope): \(answer.status) \(answer.text)")
                    } else {
                        #expect(answer.status == 403, "\(operation) with \(scope): \(answer.status)")
                        #expect(answer.errorEnvelope?.code == "missing_scope")
                        #expect(answer.errorEnvelope?.message.contains("“\(operation.scope.rawValue)” scope") == true, "\(answer.text)")
                        #expect(answer.errorEnvelope?.fields?.first?.message == operation.scope.rawValue)
                    }
                }
            }
        }
    }

    @Test("SCIM needs the scim scope; a refusal is a SCIM error naming it", arguments: Backend.allCases)
    func scimScope(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let tokens = try await Self.tokensByScope(server)
            for scope in TokenScope.allCases {
                let answer = try await server.raw(.get, "/scim/v2/Users", headers: ["Authorization": "Bearer \(tokens[scope]!)"])
                if scope == .scim {
                    #expect(answer.status == 200, "\(answer.text)")
                } else {
                    #expect(answer.status == 403 && answer.isSCIMError, "\(scope): \(answer.status) \(answer.text)")
                    #expect(answer.text.contains("scim"), "\(answer.text)")
                }
            }
            // Discovery stays open.
            #expect(try await server.raw(.get, "/scim/v2/ServiceProviderConfig").status == 200)
        }
    }

    @Test("A token revoked on one replica is refused by a second replica on the same database within one second", arguments: Backend.allCases)
    func revocationReachesReplicas(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let made = try await TokenAdministration.create(
                database: server.database, name: "report-script", scopes: [.read], lifetime: nil, logger: quietLogger)
            let replica = try await UserAPIServer.start(ServerConfiguration(databasePath: server.database, token: "another-bootstrap"))
            let headers: HTTPHeaders = ["Authorization": "Bearer \(made.secret)"]
            func status(on url: URL) async throws -> Int {
                try await TestTransport.shared.send(TransportRequest(method: .get, url: url.appendingPathComponent("api/v1/users"), headers: headers)).status
            }
            #expect(try await status(on: replica.url) == 200)
            #expect(try await status(on: server.url) == 200)

            try await TokenAdministration.revoke(database: server.database, name: "report-script", logger: quietLogger)
            // Judged by when each request was sent: on a loaded machine an answer can come long
            // after the server decided, but no request sent a second after the revocation may be
            // let in (each replica reads its token records again every 250 ms).
            let clock = ContinuousClock()
            let revokedAt = clock.now
            for url in [replica.url, server.url] {
                var refused = false
                while !refused, clock.now - revokedAt < .seconds(10) {
                    let sentAt = clock.now
                    if try await status(on: url) == 401 {
                        refused = true
                    } else {
                        #expect(sentAt - revokedAt < .seconds(1), "a request sent \(sentAt - revokedAt) after the revocation was let in")
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                #expect(refused, "\(url) still accepted the revoked token after ten seconds")
            }
            await replica.shutdown()

            let listed = try await TokenAdministration.list(database: server.database, logger: quietLogger)
            #expect(listed.map(\.name) == ["report-script"])
            #expect(listed.first?.revokedAt != nil)
            #expect(listed.first?.lastUsedAt != nil, "last use noted")
            await #expect(throws: TokenError.self) {
                try await TokenAdministration.revoke(database: server.database, name: "report-script", logger: quietLogger)
            }
            await #expect(throws: TokenError.self) {
                _ = try await TokenAdministration.create(database: server.database, name: "report-script", scopes: [.read], lifetime: nil, logger: quietLogger)
            }
        }
    }

    @Test("An expired token is refused; before its expiry it is accepted", arguments: Backend.allCases)
    func expiry(backend: Backend) async throws {
        let now = SettableNow(Date())
        try await withServer(backend: backend, now: now.function) { server in
            let made = try await TokenAdministration.create(
                database: server.database, name: "short-lived", scopes: [.read], lifetime: 3600, logger: quietLogger)
            let headers: HTTPHeaders = ["Authorization": "Bearer \(made.secret)"]
            #expect(try await server.raw(.get, "/api/v1/users", headers: headers).status == 200)
            // Well past the hour: the token was made by the real clock, a moment after the server's started.
            now.advance(by: 7200)
            #expect(try await server.raw(.get, "/api/v1/users", headers: headers).status == 401)
        }
    }

    @Test("Stored tokens are hashed: the database never holds a secret")
    func storedHashed() async throws {
        try await withServer { server in
            let made = try await TokenAdministration.create(
                database: server.database, name: "okta", scopes: [.scim], lifetime: nil, logger: quietLogger)
            // The main file and its write-ahead log, where a fresh commit still is.
            var file = try Data(contentsOf: URL(fileURLWithPath: server.database))
            file += (try? Data(contentsOf: URL(fileURLWithPath: server.database + "-wal"))) ?? Data()
            #expect(file.range(of: Data(made.secret.utf8)) == nil)
            #expect(file.range(of: Data(TokenRecord.hash(Array(made.secret.utf8)).utf8)) != nil)
        }
    }

    @Test("Scopes, names and lifetimes are checked with clear sentences")
    func parsing() throws {
        #expect(try TokenScope.parseList("read, write") == [.read, .write])
        #expect(throws: TokenError("“reed” is not a scope; the scopes are read, write, scim, admin.")) { try TokenScope.parseList("read,reed") }
        #expect(try TokenAdministration.lifetime("90d") == 90 * 86_400)
        #expect(try TokenAdministration.lifetime("30m") == 1800)
        #expect(throws: TokenError.self) { try TokenAdministration.lifetime("90") }
        #expect(throws: TokenError.self) { try TokenRecord.checkName("has space") }
        #expect(throws: Never.self) { try TokenRecord.checkName("okta-prod_1@corp.example") }
    }
}

/// Guessing tokens is slowed per address; other addresses are not.
@Suite("Guessing tokens")
struct GuessingTests {
    @Test("After repeated bad tokens one address gets 429 with a growing Retry-After and a warning; another address with a good token does not", arguments: Backend.allCases)
    func badTokensSlowed(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let port = try #require(server.url.port)
            // From 127.0.0.2 (curl --interface): a second client address on loopback.
            func guess(_ token: String) async throws -> (status: String, retryAfter: String?) {
                let result = try await TLSTests.run("curl", [
                    "-s", "-o", "/dev/null", "-D", "-", "-w", "\n%{http_code}", "--interface", "127.0.0.2",
                    "-H", "Authorization: Bearer \(token)", "http://127.0.0.1:\(port)/api/v1/users"])
                let lines = result.output.split(whereSeparator: \.isNewline)
                let retryAfter = lines.first { $0.lowercased().hasPrefix("retry-after:") }
                    .map { $0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces) }
                return (String(lines.last ?? ""), retryAfter)
            }
            for attempt in 1..<GuessLimiter.allowed {
                #expect(try await guess("wrong-\(attempt)").status == "401")
            }
            let first = try await guess("wrong-last")
            #expect(first.status == "429" && first.retryAfter == "1", "\(first)")
            try await Task.sleep(for: .milliseconds(1100))
            let second = try await guess("wrong-again")
            let blockedAt = ContinuousClock.now
            #expect(second.status == "429" && second.retryAfter == "2", "the wait grows: \(second)")
            // Blocked: even the right token from that address waits, so waiting is the only way on.
            // Judged only inside the 2 s block: under the whole suite a curl can take longer to start.
            let right = try await guess(TestServer.token)
            let elapsed = ContinuousClock.now - blockedAt
            #expect(right.status == "429" || elapsed >= .seconds(2), "\(right) after \(elapsed)")

            // The good client on 127.0.0.1 is not slowed.
            let good = try await server.raw(.get, "/api/v1/users", headers: TestServer.authorization)
            #expect(good.status == 200)
            #expect(server.logs.text.contains("repeated bad tokens"), "a warning in the server log")
        }
    }
}
