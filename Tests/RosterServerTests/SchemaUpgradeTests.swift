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

    @Test("a database made at v5 gains v6: its SCIM users' emails, externalIds and displayNames are found through the new indexes, and later writes keep them")
    func scimFilterIndexes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-upgrade-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("users.sqlite").path

        let created = Date(timeIntervalSince1970: 1_763_717_400)
        var configuration = Configuration()
        configuration.prepareDatabase { db in SQLiteDatabase.addFunctions(to: db) }
        let old = try DatabaseQueue(path: path, configuration: configuration)
        try Schema.migrator.migrate(old, upTo: "v5: counts of users by one- and two-character substring")
        let ada = User(id: "01m83hv52d1n7y5xkf", name: "Ada Lovelace", email: "ada@example.com",
                       role: .member, status: .active, createdAt: created, updatedAt: created)
        let grace = User(id: "01m83hv52d1n7y5xkg", name: "Grace Hopper", email: "grace@navy.mil",
                         role: .member, status: .active, createdAt: created, updatedAt: created.addingTimeInterval(60))
        // Grace as a SCIM write left her at v5: a document with two emails, an externalId and a displayName.
        let document = #"{"externalId":"okta-42","displayName":"Amazing Grace","emails":[{"value":"grace@navy.mil","type":"work","primary":true},{"value":"G.Hopper@Home.example","type":"home"}]}"#
        try await old.write { db in
            for user in [ada, grace] {
                try db.execute(sql: UserRow.insertSQL, arguments: UserRow.insertArguments(user))
            }
            try db.execute(sql: "UPDATE users SET user_name = 'grace', user_name_key = 'grace', scim = ? WHERE id = ?",
                           arguments: [document, grace.id])
        }
        try old.close()

        let store = try SQLiteStore(path: path)
        func ids(_ filter: String) async throws -> [String] {
            try await store.scimUsers(SCIMListQuery(filter: try SCIMFilterParser.parse(filter), sort: nil, startIndex: 1, count: 10))
                .records.map(\.user.id)
        }
        #expect(try await ids(#"emails.value eq "g.hopper@home.EXAMPLE""#) == [grace.id])
        #expect(try await ids(#"emails[type eq "work" and value co "navy"]"#) == [grace.id])
        #expect(try await ids(#"emails.value eq "ADA@example.com""#) == [ada.id])
        #expect(try await ids(#"externalId eq "okta-42""#) == [grace.id])
        #expect(try await ids(#"displayName eq "amazing grace""#) == [grace.id])
        #expect(try await ids(#"displayName sw "ada""#) == [ada.id])
        #expect(try await ids("meta.lastModified gt \"\(ISO8601Timestamp.format(created))\"") == [grace.id])
        let rows = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM user_emails") }
        #expect(rows == 2)
        // The plans use the new indexes.
        let plans = try await store.pool.read { db in
            try [#"SELECT id FROM users WHERE json_extract(users.scim, '$.externalId') = 'x' AND users.scim IS NOT NULL"#,
                 "SELECT id FROM users WHERE updated_at > 5",
                 "SELECT user_seq FROM user_emails WHERE value_key = 'x'"].map { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
        #expect(plans[0].contains("users_external_id"), "\(plans[0])")
        #expect(plans[1].contains("users_updated"), "\(plans[1])")
        #expect(plans[2].contains("user_emails_value"), "\(plans[2])")

        // A write after the upgrade keeps the rows: the Roster API's email change follows the
        // document, and a delete takes the user's rows with it.
        _ = try await store.update(id: grace.id, with: UserDraft(name: "Grace Hopper", email: "rear.admiral@navy.mil"), at: Date())
        #expect(try await ids(#"emails.value eq "rear.admiral@navy.mil""#) == [grace.id])
        #expect(try await ids(#"emails.value eq "grace@navy.mil""#) == [])
        _ = try await store.delete(id: grace.id, at: Date())
        let left = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM user_emails") }
        #expect(left == 0)
        try store.pool.close()
    }
}
