import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// `POST /api/v1/groups` with `Idempotency-Key`: the client retries a keyed POST whose answer
/// was lost, so a group create must land once and answer its retry with the first 201, not
/// with a 409 for the name its own first attempt took.
@Suite("Idempotency-Key on group creates")
struct GroupIdempotencyKeyTests {
    static let admins = #"{"name":"Admins"}"#

    private func post(_ server: TestServer, _ path: String = "/api/v1/groups", key: String?, body: String) async throws -> RawAnswer {
        var headers = TestServer.jsonWithAuthorization
        headers["Idempotency-Key"] = key
        return try await server.raw(.post, path, headers: headers, body: .json(body))
    }

    private func groupCount(_ server: TestServer) async throws -> Int {
        let answer = try await server.raw(.get, "/api/v1/groups", headers: TestServer.authorization)
        return try #require(try WireFormat.makeDecoder().decode(APIResponse<Page<Group>>.self, from: answer.response.body).data).total
    }

    @Test("the same key and body answer the first 201 again, byte for byte, and one group exists", arguments: Backend.allCases)
    func replay(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let first = try await post(server, key: "group-key", body: Self.admins)
            #expect(first.status == 201)
            let again = try await post(server, key: "group-key", body: Self.admins)
            #expect(again.status == 201)
            #expect(again.response.body == first.response.body)
            #expect(again.header("Location") == first.header("Location"))
            #expect(first.header("Location")?.hasPrefix("/api/v1/groups/") == true)
            #expect(try await groupCount(server) == 1)
            // Without the key, the same body is a second create: the name is taken.
            #expect(try await post(server, key: nil, body: Self.admins).status == 409)
            #expect(try await post(server, key: "another-key", body: Self.admins).status == 409)
        }
    }

    @Test("a key is bound to its body and to its kind of resource: reused for another body, or across users and groups, is 422", arguments: Backend.allCases)
    func reusedElsewhere(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            #expect(try await post(server, key: "group-key", body: Self.admins).status == 201)
            let otherBody = try await post(server, key: "group-key", body: #"{"name":"Editors"}"#)
            #expect(otherBody.status == 422)
            #expect(otherBody.errorEnvelope?.code == "idempotency_key_reused")
            // A group's key sent with a user's draft, and a user's key sent with a group's.
            let grace = #"{"name":"Grace Hopper","email":"grace@example.com"}"#
            let asUser = try await post(server, "/api/v1/users", key: "group-key", body: grace)
            #expect(asUser.status == 422)
            #expect(asUser.errorEnvelope?.code == "idempotency_key_reused")
            let ada = #"{"name":"Ada Lovelace","email":"ada@example.com"}"#
            #expect(try await post(server, "/api/v1/users", key: "user-key", body: ada).status == 201)
            let asGroup = try await post(server, key: "user-key", body: #"{"name":"Editors"}"#)
            #expect(asGroup.status == 422)
            #expect(asGroup.errorEnvelope?.code == "idempotency_key_reused")
            // The very bytes sent to the other route are no draft there: refused as such.
            #expect(try await post(server, "/api/v1/users", key: "group-key", body: Self.admins).errorEnvelope?.code == "validation_failed")
            #expect(try await post(server, key: "user-key", body: ada).errorEnvelope?.code == "validation_failed")
            #expect(try await groupCount(server) == 1)
            #expect(try await server.repository().listUsers(UserQuery()).total == 1)
        }
    }

    @Test("8 concurrent creates with one key: one group, and every answer is the same 201", arguments: Backend.allCases)
    func concurrentSameKey(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let answers = try await withThrowingTaskGroup(of: RawAnswer.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await post(server, key: "racing-group-key", body: Self.admins) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.map(\.status) == Array(repeating: 201, count: 8))
            #expect(Set(answers.map(\.response.body)).count == 1)
            #expect(try await groupCount(server) == 1)
        }
    }

    @Test("a refused create records nothing: after a 409 the same key runs again", arguments: Backend.allCases)
    func refusalNotRecorded(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let first = try await post(server, key: nil, body: Self.admins)
            #expect(first.status == 201)
            #expect(try await post(server, key: "late-key", body: #"{"name":"ADMINS"}"#).status == 409)
            let id = try #require(try WireFormat.makeDecoder().decode(APIResponse<Group>.self, from: first.response.body).data?.id)
            #expect(try await server.raw(.delete, "/api/v1/groups/\(id)", headers: TestServer.authorization).status == 200)
            #expect(try await post(server, key: "late-key", body: #"{"name":"ADMINS"}"#).status == 201)
        }
    }
}
