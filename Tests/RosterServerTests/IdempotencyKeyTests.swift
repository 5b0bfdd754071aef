import Foundation
import GRDB
import RosterKit
@testable import RosterServer
import Testing

/// `POST /api/v1/users` with `Idempotency-Key`: a create whose answer was lost can be sent again
/// and lands once.
@Suite("Idempotency-Key on creates")
struct IdempotencyKeyTests {
    static let ada = #"{"name":"Ada Lovelace","email":"ada@example.com"}"#

    private func post(_ server: TestServer, key: String?, body: String) async throws -> RawAnswer {
        var headers = TestServer.jsonWithAuthorization
        headers["Idempotency-Key"] = key
        return try await server.raw(.post, "/api/v1/users", headers: headers, body: .json(body))
    }

    private func total(_ server: TestServer) async throws -> Int {
        try await server.repository().listUsers(UserQuery()).total
    }

    @Test("the same key and body answer the first 201 again, byte for byte, and one user exists", arguments: Backend.allCases)
    func replay(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let first = try await post(server, key: "key-1", body: Self.ada)
            #expect(first.status == 201)
            #expect(try await total(server) == 1) // the list is now cached
            let again = try await post(server, key: "key-1", body: Self.ada)
            #expect(again.status == 201)
            #expect(again.response.body == first.response.body)
            #expect(again.header("Location") == first.header("Location"))
            #expect(try await total(server) == 1)
            // The first answer stays the answer, even after the user changed.
            let user = try #require(try WireFormat.makeDecoder().decode(APIResponse<User>.self, from: first.response.body).data)
            _ = try await server.repository().updateUser(id: user.id, with: UserDraft(name: "Ada King", email: "ada@example.com"))
            #expect(try await post(server, key: "key-1", body: Self.ada).response.body == first.response.body)
            // Another key is another create: here the email is taken.
            #expect(try await post(server, key: "key-2", body: Self.ada).status == 409)
        }
    }

    @Test("the same key with another body is 422 idempotency_key_reused, and nothing is written", arguments: Backend.allCases)
    func reusedWithAnotherBody(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            #expect(try await post(server, key: "key-1", body: Self.ada).status == 201)
            for body in [#"{"name":"Grace Hopper","email":"grace@example.com"}"#, #"{"name": "Ada Lovelace","email":"ada@example.com"}"#] {
                let answer = try await post(server, key: "key-1", body: body)
                #expect(answer.status == 422, "body \(body)")
                #expect(answer.errorEnvelope?.code == "idempotency_key_reused")
                #expect(answer.errorEnvelope?.message.contains("different request body") == true)
            }
            // A body that is no draft at all is refused as such before its key is looked at;
            // so are the bytes a group create's key is recorded with.
            #expect(try await post(server, key: "key-1", body: "{").status == 400)
            var headers = TestServer.jsonWithAuthorization
            headers["Idempotency-Key"] = "group-key"
            let group = #"{"name":"Admins"}"#
            #expect(try await server.raw(.post, "/api/v1/groups", headers: headers, body: .json(group)).status == 201)
            let crafted = try await post(server, key: "group-key", body: "POST /api/v1/groups\n" + group)
            #expect(crafted.status == 400)
            #expect(try await total(server) == 1)
        }
    }

    @Test("a key is kept 24 hours: a millisecond before, it replays; at 24 hours the create runs again", arguments: Backend.allCases)
    func expiry(backend: Backend) async throws {
        let clock = SettableNow()
        try await withServer(backend: backend, now: clock.function) { server in
            let first = try await post(server, key: "key-1", body: Self.ada)
            #expect(first.status == 201)
            clock.advance(by: 24 * 60 * 60 - 0.001)
            #expect(try await post(server, key: "key-1", body: Self.ada).response.body == first.response.body)

            clock.advance(by: 0.001)
            // Run again, not replayed: this time the email is taken by the first create.
            let rerun = try await post(server, key: "key-1", body: Self.ada)
            #expect(rerun.status == 409)
            #expect(rerun.errorEnvelope?.code == "email_taken")
            // And another body is no longer a reuse: it creates, and its answer is the key's now.
            let grace = #"{"name":"Grace Hopper","email":"grace@example.com"}"#
            let second = try await post(server, key: "key-1", body: grace)
            #expect(second.status == 201)
            #expect(second.header("Location") != first.header("Location"))
            #expect(try await post(server, key: "key-1", body: grace).response.body == second.response.body)
            #expect(try await total(server) == 2)
            // The expired record was purged, not just ignored (looked at in the SQLite file).
            if backend == .sqlite {
                let queue = try DatabaseQueue(path: server.databasePath)
                let keys = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM idempotency_keys") }
                #expect(keys == 1)
            }
        }
    }

    @Test("16 concurrent creates with one key: one user, and every answer is the same 201", arguments: Backend.allCases)
    func concurrentSameKey(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let answers = try await withThrowingTaskGroup(of: RawAnswer.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await post(server, key: "racing-key", body: Self.ada) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.map(\.status) == Array(repeating: 201, count: 16))
            #expect(Set(answers.map(\.response.body)).count == 1)
            #expect(Set(answers.compactMap { $0.header("Location") }).count == 1)
            #expect(try await total(server) == 1)
        }
    }

    @Test("without a key every create runs: a repeat is a second create (here, a taken email)", arguments: Backend.allCases)
    func withoutKey(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            #expect(try await post(server, key: nil, body: Self.ada).status == 201)
            let repeated = try await post(server, key: nil, body: Self.ada)
            #expect(repeated.status == 409)
            #expect(repeated.errorEnvelope?.code == "email_taken")
            #expect(try await post(server, key: nil, body: #"{"name":"Grace","email":"grace@example.com"}"#).status == 201)
            #expect(try await total(server) == 2)
        }
    }

    @Test("a refused create records nothing: its retry with the same key runs again", arguments: Backend.allCases)
    func refusalNotRecorded(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let blocker = try await server.repository().createUser(UserDraft(name: "Someone", email: "ada@example.com"))
            #expect(try await post(server, key: "key-1", body: Self.ada).status == 409)
            _ = try await server.repository().deleteUser(id: blocker.id)
            #expect(try await post(server, key: "key-1", body: Self.ada).status == 201)

            let invalid = try await post(server, key: "key-2", body: #"{"name":"","email":"grace@example.com"}"#)
            #expect(invalid.errorEnvelope?.code == "validation_failed")
            #expect(try await post(server, key: "key-2", body: #"{"name":"Grace","email":"grace@example.com"}"#).status == 201)
            #expect(try await total(server) == 2)
        }
    }

    @Test("the user and its key record commit together: when the record cannot be written, no user is created")
    func oneTransaction() async throws {
        try await withServer { server in
            let queue = try DatabaseQueue(path: server.databasePath)
            try await queue.write { db in
                try db.execute(sql: "CREATE TRIGGER refuse_keys BEFORE INSERT ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'refused'); END")
            }
            #expect(try await post(server, key: "key-1", body: Self.ada).status == 500)
            #expect(try await total(server) == 0)
            #expect(try await post(server, key: nil, body: Self.ada).status == 201)
        }
    }

    @Test("a key over 255 characters is 400 bad_idempotency_key; 255 is accepted", arguments: Backend.allCases)
    func keyLength(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let tooLong = try await post(server, key: String(repeating: "k", count: 256), body: Self.ada)
            #expect(tooLong.status == 400)
            #expect(tooLong.errorEnvelope?.code == "bad_idempotency_key")
            #expect(try await total(server) == 0)
            #expect(try await post(server, key: String(repeating: "k", count: 255), body: Self.ada).status == 201)
        }
    }

    @Test("the header is read exactly: absent, empty, too long, not printable ASCII, repeated")
    func headerParsing() throws {
        #expect(try IdempotencyKeyHeader.parse(values: []) == nil)
        #expect(try IdempotencyKeyHeader.parse(values: ["4f1c2e8a-0000-4000-8000-000000000001"]) == "4f1c2e8a-0000-4000-8000-000000000001")
        #expect(try IdempotencyKeyHeader.parse(values: [#""quoted form""#]) == #""quoted form""#)
        for bad in [[""], [String(repeating: "k", count: 256)], ["caf\u{E9}"], ["tab\there"], ["a", "b"]] {
            #expect(throws: APIProblem.self, "\(bad)") { try IdempotencyKeyHeader.parse(values: bad) }
        }
    }

    @Test("a replay is not a write: the database's write generation moves for the create only")
    func replayKeepsCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-idempotency-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("users.sqlite").path)
        let now = Date()
        let draft = UserDraft(name: "Ada", email: "ada@example.com")
        let request = IdempotentRequest(key: "key-1", body: Data(Self.ada.utf8))
        let before = try await store.generation()
        guard case .created(let user, _) = try await store.create(draft, at: now, idempotency: request) else {
            Issue.record("the first use of a key must create")
            return
        }
        let afterCreate = try await store.generation()
        #expect(afterCreate > before)
        guard case .replayed(let answer) = try await store.create(draft, at: now, idempotency: request) else {
            Issue.record("the second use of a key must replay")
            return
        }
        #expect(answer.resourceID == user.id)
        #expect(answer.response == UserJSON.envelope(user))
        #expect(try await store.firstAnswer(to: request, at: now) == answer)
        let other = IdempotentRequest(key: "key-1", body: Data("{}".utf8))
        await #expect(throws: StoreError.idempotencyKeyReused) { try await store.firstAnswer(to: other, at: now) }
        await #expect(throws: StoreError.idempotencyKeyReused) { try await store.create(draft, at: now, idempotency: other) }
        #expect(try await store.generation() == afterCreate)
        try store.pool.close()
    }
}
