import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// What only the PostgreSQL backend has to show: the generation shared by its processes, which
/// SCIM's writes move as the Roster API's do.
@Suite("PostgreSQL store")
struct PostgresStoreTests {
    /// Two stores with their own connection pools on one fresh database, as two processes have.
    private func withTwoStores(_ body: (PostgresStore, PostgresStore) async throws -> Void) async throws {
        try await withTwoPools { first, second in
            try await body(PostgresStore(database: first), PostgresStore(database: second))
        }
    }

    @Test("every committed write moves the generation, seen at once through another pool; a refusal does not")
    func generationAcrossPools() async throws {
        try await withTwoStores { writer, reader in
            let now = Date()
            var seen = try await reader.generation()
            func moved() async throws -> Bool {
                let current = try await reader.generation()
                defer { seen = current }
                return current > seen
            }
            let ada = try await writer.create(UserDraft(name: "Ada", email: "ada@example.com"), at: now)
            #expect(try await moved())
            await #expect(throws: StoreError.emailTaken) {
                try await writer.create(UserDraft(name: "Other Ada", email: "ADA@example.com"), at: now)
            }
            #expect(try await !moved())
            _ = try await writer.update(id: ada.id, with: UserDraft(name: "Ada King", email: "ada@example.com"), at: now)
            #expect(try await moved())
            let group = try await writer.createGroup(GroupDraft(name: "Ops"), at: now)
            #expect(try await moved())
            _ = try await writer.setMembership(of: ada.id, in: group.id, isMember: true, at: now)
            #expect(try await moved())
            _ = try await writer.delete(id: ada.id, at: Date())
            #expect(try await moved())
            await #expect(throws: StoreError.notFound) { try await writer.delete(id: ada.id, at: Date()) }
            #expect(try await !moved())
        }
    }

    @Test("a page and its total come from one snapshot, and the stored JSON carries the groups")
    func listThroughAnotherPool() async throws {
        try await withTwoStores { writer, reader in
            let now = Date()
            let ada = try await writer.create(UserDraft(name: "Ada", email: "ada@example.com"), at: now)
            let group = try await writer.createGroup(GroupDraft(name: "Ops"), at: now)
            _ = try await writer.setMembership(of: ada.id, in: group.id, isMember: true, at: now)
            let envelope = try await reader.listEnvelope(UserListQuery(UserQuery()))
            let page = try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: Data(envelope)).data
            #expect(page?.total == 1)
            #expect(page?.items.first?.groups.map(\.name) == ["Ops"])
            #expect(try await reader.group(id: group.id).memberCount == 1)
        }
    }

    /// A database at schema `version`, filled by `fill`, then opened by this build (every later
    /// migration applied) for `check`; dropped whatever happens.
    private func upgrading<Filled: Sendable>(
        from version: Int, fill: (PostgresStore) async throws -> Filled,
        check: (PostgresDatabase, Filled) async throws -> Void
    ) async throws {
        let (url, name) = try await TestPostgres.shared.createDatabase(migrated: false)
        let old = try await PostgresDatabase.open(url: url, logger: quietLogger, schemaVersion: version, workDeadline: PostgresDatabase.notUnderTest)
        let filled: Filled
        do { filled = try await fill(PostgresStore(database: old)) } catch {
            await old.close()
            try? await TestPostgres.shared.dropDatabase(named: name)
            throw error
        }
        await old.close()
        let upgraded = try await PostgresDatabase.open(url: url, logger: quietLogger, workDeadline: PostgresDatabase.notUnderTest)
        let result: Result<Void, any Error>
        do { result = .success(try await check(upgraded, filled)) } catch { result = .failure(error) }
        await upgraded.close()
        try? await TestPostgres.shared.dropDatabase(named: name)
        try result.get()
    }

    @Test("A database made before SCIM (migration 5) gains it: its users are SCIM users, their emails their userNames")
    func upgradeToSCIM() async throws {
        try await upgrading(from: 5) { old in
            try await old.create(UserDraft(name: "Ada", email: "Ada@Example.com"), at: Date())
        } check: { upgraded, ada in
            let store = PostgresStore(database: upgraded)
            let record = try await store.scimUser(id: ada.id)
            #expect(record.userName == "Ada@Example.com")
            #expect(record.document == nil)
            let query = SCIMListQuery(filter: try SCIMFilterParser.parse(#"userName eq "ada@example.COM""#), sort: nil, startIndex: 1, count: 10)
            #expect(try await store.scimUsers(query).records.map(\.user.id) == [ada.id])
            let body = try SCIMJSONParser.parse(scimUserJSON("ADA@example.com", email: "other@example.com"))
            await #expect(throws: StoreError.userNameTaken) {
                try await store.createSCIMUser(try SCIMUserResource.write(from: body, current: nil), at: Date())
            }
        }
    }

    @Test("A database made before migration 8 gains stored userName and active columns: its users filter as before, the total from the index alone")
    func upgradeToStoredSCIMColumns() async throws {
        try await upgrading(from: 7) { old in
            let ada = try await old.create(UserDraft(name: "Ada", email: "ada@example.com"), at: Date())
            _ = try await old.create(UserDraft(name: "Alan", email: "alan@example.com", status: .suspended), at: Date())
            let body = try SCIMJSONParser.parse(scimUserJSON("Anna", email: "anna@example.com", extra: #""active":false"#))
            _ = try await old.createSCIMUser(try SCIMUserResource.write(from: body, current: nil), at: Date())
            return ada
        } check: { upgraded, ada in
            let store = PostgresStore(database: upgraded)
            let query = SCIMListQuery(filter: try SCIMFilterParser.parse(#"userName sw "A" and active eq true"#), sort: nil, startIndex: 1, count: 10)
            let found = try await store.scimUsers(query)
            #expect(found.total == 1)
            #expect(found.records.map(\.user.id) == [ada.id])
            let sorted = SCIMListQuery(filter: nil, sort: SCIMListPlan.Sort(path: SCIMAttributePath(name: "userName"), descending: true), startIndex: 1, count: 10)
            #expect(try await store.scimUsers(sorted).records.map(\.userName) == ["Anna", "alan@example.com", "ada@example.com"])
            // The total can be read from the new index alone (three rows would be read from
            // the table, unless the planner is told not to).
            let plan = try await upgraded.client.withConnection { connection in
                try await connection.query("SET enable_seqscan = off", logger: quietLogger)
                var plan = ""
                for try await line in try await connection.query("""
                    EXPLAIN SELECT count(*) FROM users WHERE scim_user_name_key >= 'a' AND scim_user_name_key < 'b' AND scim_active = true
                    """, logger: quietLogger).decode(String.self) {
                    plan += line + "\n"
                }
                try await connection.query("RESET enable_seqscan", logger: quietLogger)
                return plan
            }
            #expect(plan.contains("users_scim_user_name_active"), "\(plan)")
        }
    }

    @Test("A database made before migration 9 gains the SCIM filter indexes: its documents' emails are found through user_emails, externalId through its own index")
    func upgradeToIndexedSCIMFilters() async throws {
        try await upgrading(from: 8) { old in
            let ada = try await old.create(UserDraft(name: "Ada", email: "ada@example.com"), at: Date())
            let body = try SCIMJSONParser.parse(#"""
                {"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"grace","externalId":"okta-42",
                 "displayName":"Amazing Grace","emails":[{"value":"grace@navy.mil","type":"work","primary":true},
                 {"value":"G.Hopper@Home.example","type":"home"}]}
                """#)
            let grace = try await old.createSCIMUser(try SCIMUserResource.write(from: body, current: nil), at: Date())
            return [ada.id, grace.user.id]
        } check: { upgraded, ids in
            let store = PostgresStore(database: upgraded)
            func found(_ filter: String) async throws -> [String] {
                try await store.scimUsers(SCIMListQuery(filter: try SCIMFilterParser.parse(filter), sort: nil, startIndex: 1, count: 10))
                    .records.map(\.user.id)
            }
            #expect(try await found(#"emails.value eq "g.hopper@home.EXAMPLE""#) == [ids[1]])
            #expect(try await found(#"emails[type eq "work" and value co "navy"]"#) == [ids[1]])
            #expect(try await found(#"emails.value eq "ADA@example.com""#) == [ids[0]])
            #expect(try await found(#"externalId eq "okta-42""#) == [ids[1]])
            #expect(try await found(#"displayName eq "amazing GRACE""#) == [ids[1]])
            // A later SCIM replace keeps the rows in step.
            let replacement = try SCIMJSONParser.parse(scimUserJSON("grace", email: "hopper@navy.mil"))
            _ = try await store.modifySCIMUser(id: ids[1], ifMatch: nil, at: Date()) { current in
                try SCIMUserResource.write(from: replacement, current: current)
            }
            #expect(try await found(#"emails.value eq "g.hopper@home.example""#) == [])
            #expect(try await found(#"emails.value eq "hopper@navy.mil""#) == [ids[1]])
            let plans = try await upgraded.client.withConnection { connection in
                try await connection.query("SET enable_seqscan = off", logger: quietLogger)
                var plans: [String] = []
                for sql in [
                    "EXPLAIN SELECT user_seq FROM user_emails WHERE value_key = 'x'",
                    "EXPLAIN SELECT seq FROM users WHERE users.scim_json IS NOT NULL AND \(SCIMUserColumns.externalID(PostgresSCIMDialect())) = 'x'",
                    "EXPLAIN SELECT seq FROM users WHERE updated_at > 5",
                ] {
                    var plan = ""
                    for try await line in try await connection.query(PostgresSCIMDialect.query(sql, []), logger: quietLogger).decode(String.self) {
                        plan += line + "\n"
                    }
                    plans.append(plan)
                }
                try await connection.query("RESET enable_seqscan", logger: quietLogger)
                return plans
            }
            #expect(plans[0].contains("user_emails_value"), "\(plans[0])")
            #expect(plans[1].contains("users_external_id"), "\(plans[1])")
            #expect(plans[2].contains("users_updated"), "\(plans[2])")
        }
    }

    @Test("SCIM writes move the generation another process reads, and show in its SCIM reads")
    func scimWritesMoveTheGeneration() async throws {
        try await withTwoStores { writer, reader in
            let before = try await reader.generation()
            let body = try SCIMJSONParser.parse(scimUserJSON("Ada", email: "ada@example.com", extra: #""nickName":"A""#))
            let ada = try await writer.createSCIMUser(try SCIMUserResource.write(from: body, current: nil), at: Date())
            let created = try await reader.generation()
            #expect(created > before)
            let query = SCIMListQuery(filter: try SCIMFilterParser.parse(#"userName eq "ADA""#), sort: nil, startIndex: 1, count: 10)
            let found = try await reader.scimUsers(query)
            #expect(found.total == 1)
            #expect(found.records.first?.user.id == ada.user.id)
            #expect(found.records.first?.document?["nickName"] == .string("A"))

            let group = try await writer.createSCIMGroup(SCIMGroupWrite(name: "Ops", document: SCIMObject(), memberIDs: [ada.user.id]), at: Date())
            #expect(try await reader.generation() > created)
            #expect(try await reader.scimUser(id: ada.user.id).user.groups.map(\.id) == [group.group.id])
        }
    }
}
