import Foundation
import RosterKit
import Testing

@Suite("CRUD through RosterAPIDirectory")
struct CRUDTests {
    @Test("create, get, update, list, delete: each answer is what was stored", arguments: Backend.allCases)
    func roundTrip(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let users = server.repository()
            let created = try await users.createUser(UserDraft(name: "  Ada Lovelace ", email: " Ada@Example.com ", role: .admin))
            #expect(created.name == "Ada Lovelace")
            #expect(created.email == "Ada@Example.com")
            #expect(created.role == .admin)
            #expect(created.status == .active)
            #expect(created.createdAt == created.updatedAt)
            #expect(created.id.range(of: "^[0-9a-z]{18}$", options: .regularExpression) != nil)

            #expect(try await users.user(id: created.id) == created)

            let updated = try await users.updateUser(id: created.id, with: UserDraft(name: "Ada King", email: "ada@example.org", status: .suspended))
            #expect(updated.id == created.id)
            #expect(updated.name == "Ada King")
            #expect(updated.email == "ada@example.org")
            #expect(updated.role == .admin, "a role left out of an update is kept")
            #expect(updated.status == .suspended)
            #expect(updated.createdAt == created.createdAt)
            #expect(updated.updatedAt >= created.updatedAt)
            #expect(try await users.user(id: created.id) == updated)

            let page = try await users.listUsers(UserQuery())
            #expect(page.items == [updated])
            #expect(page.total == 1)

            // The contract answers a DELETE with the removed user.
            let removed: User = try await server.client().send(UserEndpoint.delete(id: created.id))
            #expect(removed == updated)
            await #expect(throws: APIError.self) { try await users.user(id: created.id) }
            do {
                try await users.deleteUser(id: created.id)
                Issue.record("a second delete must fail")
            } catch let error as APIError {
                #expect(error.status == 404)
                #expect(error.body?.code == "not_found")
            }
            #expect(try await users.listUsers(UserQuery()).total == 0)
        }
    }

    @Test("201 carries Location, and Location leads to the user", arguments: Backend.allCases)
    func locationHeader(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let answer = try await server.raw(.post, "/api/v1/users", headers: TestServer.jsonWithAuthorization,
                                              body: .json(#"{"name":"Grace Hopper","email":"grace@example.com"}"#))
            #expect(answer.status == 201)
            let user = try WireFormat.makeDecoder().decode(APIResponse<User>.self, from: answer.response.body).data
            let location = try #require(answer.header("Location"))
            #expect(location == "/api/v1/users/\(try #require(user).id)")
            let fetched = try await server.raw(.get, location, headers: TestServer.authorization)
            #expect(fetched.status == 200)
        }
    }

    @Test("health answers without a token; the embedded server is on loopback with a real port")
    func health() async throws {
        try await withServer { server in
            #expect(server.url.host == "127.0.0.1")
            #expect((server.url.port ?? 0) > 0)
            let health = try await server.repository(token: nil).health()
            #expect(health.status == "ok")
        }
    }

    @Test("/openapi.json serves the OpenAPI 3.1 document of every route")
    func openAPIDocument() async throws {
        try await withServer { server in
            let answer = try await server.raw(.get, "/openapi.json")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "application/json")
            let document = try #require(try JSONSerialization.jsonObject(with: answer.response.body) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            #expect(Set(paths.keys) == [
                "/api/v1/users", "/api/v1/users/{id}", "/api/v1/groups", "/api/v1/groups/{id}", "/api/v1/groups/{id}/members",
                "/api/v1/groups/{id}/members/{user_id}", "/api/v1/audit", "/api/v1/health", "/openapi.json",
            ])
            #expect(Set(paths["/api/v1/users"]!.keys) == ["get", "post"])
            #expect(Set(paths["/api/v1/users/{id}"]!.keys) == ["parameters", "get", "put", "delete"])
        }
    }
}
