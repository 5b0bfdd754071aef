import Foundation
import GRDB
import RosterKit
import Testing

@Suite("Every error status has the envelope and its headers")
struct ErrorStatusTests {
    @Test("400 for malformed JSON and for a body that is not an object")
    func malformedJSON() async throws {
        try await withServer { server in
            for body in ["{", "", "[1,2]", "\"text\""] {
                let answer = try await server.raw(.post, "/api/v1/users", headers: TestServer.jsonWithAuthorization, body: .json(body))
                #expect(answer.status == 400, "body \(body)")
                #expect(answer.errorEnvelope?.code == "malformed_json", "body \(body)")
            }
        }
    }

    @Test("400 for every kind of bad query", arguments: [
        "page=0", "page=-1", "page=abc", "page=", "page=10000001", "per_page=0", "per_page=201",
        "per_page=1.5", "sort=age", "role=owner", "status=gone", "page=1&page=2", "q=%FF", "q=" + String(repeating: "a", count: 201),
    ])
    func badQuery(query: String) async throws {
        try await withServer { server in
            let answer = try await server.raw(.get, "/api/v1/users?" + query, headers: TestServer.authorization)
            #expect(answer.status == 400)
            #expect(answer.errorEnvelope?.code == "bad_query")
        }
    }

    @Test("401 without or with a wrong token, with WWW-Authenticate: Bearer")
    func unauthorized() async throws {
        try await withServer { server in
            let headers: [HTTPHeaders] = [[:], ["Authorization": "Bearer wrong"], ["Authorization": "Basic abc"],
                                          ["Authorization": "Bearer \(TestServer.token)x"], ["Authorization": TestServer.token]]
            for header in headers {
                for (method, path) in [(HTTPMethod.get, "/api/v1/users"), (.get, "/api/v1/users/x"), (.delete, "/api/v1/users/x"), (.post, "/api/v1/users")] {
                    let answer = try await server.raw(method, path, headers: header)
                    #expect(answer.status == 401)
                    #expect(answer.header("WWW-Authenticate") == "Bearer")
                    #expect(answer.errorEnvelope?.code == "unauthorized")
                }
            }
            // The scheme is case-insensitive.
            #expect(try await server.raw(.get, "/api/v1/users", headers: ["Authorization": "bearer \(TestServer.token)"]).status == 200)
            // Through the client: a typed error, not retried.
            await #expect(throws: APIError.unauthorized(ErrorBody(code: "unauthorized", message: APIProblemMessage.unauthorized))) {
                _ = try await server.repository(token: "nope").listUsers(UserQuery())
            }
        }
    }

    @Test("404 for an unknown user and for an unknown route", arguments: Backend.allCases)
    func notFound(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            for (method, path) in [(HTTPMethod.get, "/api/v1/users/nobody"), (.put, "/api/v1/users/nobody"), (.delete, "/api/v1/users/nobody")] {
                let answer = try await server.raw(method, path, headers: TestServer.jsonWithAuthorization,
                                                  body: method == .put ? .json(#"{"name":"A","email":"a@example.com"}"#) : nil)
                #expect(answer.status == 404)
                #expect(answer.errorEnvelope?.code == "not_found")
            }
            for path in ["/", "/api", "/api/v2/users", "/api/v1/users/a/b", "/openapi.yaml"] {
                let answer = try await server.raw(.get, path, headers: TestServer.authorization)
                #expect(answer.status == 404, "path \(path)")
                #expect(answer.errorEnvelope?.code == "not_found", "path \(path)")
            }
        }
    }

    @Test("405 with Allow for a path that exists under another method")
    func methodNotAllowed() async throws {
        try await withServer { server in
            let cases: [(HTTPMethod, String, String)] = [
                (.patch, "/api/v1/users", "GET, POST"), (.delete, "/api/v1/users", "GET, POST"), (.put, "/api/v1/users", "GET, POST"),
                (.post, "/api/v1/users/abc", "GET, PUT, DELETE"), (.patch, "/api/v1/users/abc", "GET, PUT, DELETE"),
                (.post, "/api/v1/health", "GET"), (.delete, "/openapi.json", "GET"),
            ]
            for (method, path, allow) in cases {
                let answer = try await server.raw(method, path, headers: TestServer.authorization)
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer.header("Allow") == allow, "\(method) \(path)")
                #expect(answer.errorEnvelope?.code == "method_not_allowed")
            }
        }
    }

    @Test("409 when the email is taken, in any case, with a field error on email", arguments: Backend.allCases)
    func emailTaken(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let users = server.repository()
            let first = try await users.createUser(UserDraft(name: "Ana", email: "ana@example.com"))
            let other = try await users.createUser(UserDraft(name: "Bo", email: "bo@example.com"))
            for attempt in [{ try await users.createUser(UserDraft(name: "Ana 2", email: "ANA@Example.COM")) },
                            { try await users.updateUser(id: other.id, with: UserDraft(name: "Bo", email: "Ana@example.com")) }] {
                do {
                    _ = try await attempt()
                    Issue.record("a taken email must be refused")
                } catch let error as APIError {
                    #expect(error.status == 409)
                    #expect(error.body?.code == "email_taken")
                    #expect(error.fieldErrors.map(\.field) == ["email"])
                }
            }
            // Keeping one's own email, in another case, is not a conflict.
            let renamed = try await users.updateUser(id: first.id, with: UserDraft(name: "Ana", email: "ANA@example.com"))
            #expect(renamed.email == "ANA@example.com")
        }
    }

    @Test("413 for a body over 64 KiB; 64 KiB itself is read")
    func payloadTooLarge() async throws {
        try await withServer { server in
            func body(totalBytes: Int) -> Data {
                let shell = #"{"name":"A","email":"a@example.com","x":""}"#
                return .json(#"{"name":"A","email":"a@example.com","x":""# + String(repeating: "y", count: totalBytes - shell.utf8.count) + #""}"#)
            }
            let over = try await server.raw(.post, "/api/v1/users", headers: TestServer.jsonWithAuthorization, body: body(totalBytes: 64 * 1024 + 1))
            #expect(over.status == 413)
            #expect(over.errorEnvelope?.code == "payload_too_large")
            // Exactly the limit gets read and judged: the unknown field "x" makes it a 422.
            let limit = try await server.raw(.post, "/api/v1/users", headers: TestServer.jsonWithAuthorization, body: body(totalBytes: 64 * 1024))
            #expect(limit.status == 422)
        }
    }

    @Test("415 when the body is not sent as JSON")
    func unsupportedMediaType() async throws {
        try await withServer { server in
            let body = Data.json(#"{"name":"A","email":"a@example.com"}"#)
            for contentType in [nil, "text/plain", "application/x-www-form-urlencoded", "application/jsonx"] {
                var headers = TestServer.authorization
                headers["Content-Type"] = contentType
                let answer = try await server.raw(.post, "/api/v1/users", headers: headers, body: body)
                #expect(answer.status == 415, "Content-Type \(contentType ?? "none")")
                #expect(answer.errorEnvelope?.code == "unsupported_media_type")
            }
            var headers = TestServer.authorization
            headers["Content-Type"] = "Application/JSON; charset=utf-8"
            #expect(try await server.raw(.post, "/api/v1/users", headers: headers, body: body).status == 201)
        }
    }

    @Test("422 with one field error per bad field, unknown and mistyped fields included")
    func validationFailed() async throws {
        try await withServer { server in
            let cases: [(String, [String])] = [
                (#"{"name":"","email":"nope","role":"owner","status":"gone"}"#, ["name", "email", "role", "status"]),
                (#"{"email":"a@example.com"}"#, ["name"]),
                (#"{"name":"A"}"#, ["email"]),
                (#"{"name":"A","email":"a@example.com","emial":"typo"}"#, ["emial"]),
                (#"{"name":42,"email":null,"role":null,"admin":true}"#, ["name", "email", "role", "admin"]),
                (#"{"name":"tab\there","email":"a@example.com"}"#, ["name"]),
                (#"{"name":"   ","email":"a@example.com"}"#, ["name"]),
                ("{\"name\":\"\(String(repeating: "n", count: 101))\",\"email\":\"a@example.com\"}", ["name"]),
            ]
            for (body, fields) in cases {
                let answer = try await server.raw(.post, "/api/v1/users", headers: TestServer.jsonWithAuthorization, body: .json(body))
                #expect(answer.status == 422, "body \(body)")
                #expect(answer.errorEnvelope?.code == "validation_failed")
                #expect(answer.errorEnvelope?.fields?.map(\.field) == fields, "body \(body)")
            }
            // Through the client, the field errors arrive typed, with UserValidation's own messages.
            do {
                _ = try await server.repository().createUser(UserDraft(name: "", email: "a@b"))
                Issue.record("an invalid draft must be refused")
            } catch let error as APIError {
                #expect(error.status == 422)
                #expect(error.fieldErrors == UserValidation.problems(in: UserDraft(name: "", email: "a@b")))
            }
            // An update is judged the same way.
            let user = try await server.repository().createUser(UserDraft(name: "A", email: "a@example.com"))
            let update = try await server.raw(.put, "/api/v1/users/\(user.id)", headers: TestServer.jsonWithAuthorization,
                                              body: .json(#"{"name":"A","email":"a@example.com","id":"other"}"#))
            #expect(update.status == 422)
            #expect(update.errorEnvelope?.fields?.map(\.field) == ["id"])
        }
    }

    @Test("500 has the envelope too (the database lost a table under the server)")
    func internalError() async throws {
        try await withServer { server in
            let queue = try DatabaseQueue(path: server.databasePath)
            try await queue.write { db in try db.execute(sql: "DROP TABLE users_count") }
            let answer = try await server.raw(.get, "/api/v1/users", headers: TestServer.authorization)
            #expect(answer.status == 500)
            #expect(answer.errorEnvelope?.code == "internal_error")
            #expect(server.logs.text.contains("request failed"))
        }
    }
}

/// The 401 message, spelled once for the tests.
enum APIProblemMessage {
    static let unauthorized = "This call needs the header “Authorization: Bearer <token>” with the server's token."
}
