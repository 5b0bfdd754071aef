import Foundation
import GRDB
import RosterKit
@testable import RosterServer
import Testing

@Suite("Upgrading a database made before groups")
struct SchemaUpgradeTests {
    @Test("users stored before groups, and kept first answers, come out with groups: [] exactly as UserJSON writes them now")
    func usersGainGroups() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-upgrade-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("users.sqlite").path

        let created = Date(timeIntervalSince1970: 1_763_717_400)
        let user = User(id: "01m83hv52d1n7y5xkf", name: "Ada \"Countess\" Lovelace", email: "ada@example.com",
                        role: .admin, status: .active, createdAt: created, updatedAt: created)
        let old = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(old, upTo: "v2: idempotency keys of creates")
        try await old.write { db in
            // The JSON as the server wrote it before groups: no "groups" key.
            let json = #"{"id":"01m83hv52d1n7y5xkf","name":"Ada \"Countess\" Lovelace","email":"ada@example.com","role":"admin","status":"active","created_at":"2025-11-21T09:30:00.000Z","updated_at":"2025-11-21T09:30:00.000Z"}"#
            try db.execute(sql: """
                INSERT INTO users (id, name, email, role, status, created_at, updated_at, name_key, email_key, json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [user.id, user.name, user.email, "admin", "active", Milliseconds.of(created), Milliseconds.of(created),
                                 SortKey.of(user.name), SortKey.of(user.email), json])
            // And the first answer kept for an idempotency key, an envelope around that JSON.
            try db.execute(sql: """
                INSERT INTO idempotency_keys (key, request_body, user_id, response, created_at) VALUES ('k', x'7b7d', ?, ?, ?)
                """, arguments: [user.id, #"{"success":true,"data":"# + json + #","error":null}"#, Milliseconds.of(created)])
        }
        try old.close()

        let store = try SQLiteStore(path: path)
        let stored = try await store.pool.read { db in try String.fetchOne(db, sql: "SELECT json FROM users") }
        #expect(stored == UserJSON.objectText(user))
        #expect(try await store.getEnvelope(id: user.id) == UserJSON.envelope(user))
        #expect(try await store.list(UserQuery()).items == [user])
        let replay = try await store.firstAnswer(to: IdempotentRequest(key: "k", body: Data("{}".utf8)), at: created)
        #expect(replay?.response == UserJSON.envelope(user))
        try store.pool.close()
    }
}
