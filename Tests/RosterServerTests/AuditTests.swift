import Foundation
import GRDB
import PostgresNIO
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The audit log on both backends: each write and its entry commit together, with the token's
/// name, the client, the request id and the fields before and after; SCIM (Bulk included)
/// too; the log refuses updates; `GET /api/v1/audit` needs `admin`.
@Suite("Audit log")
struct AuditTests {
    static func token(_ server: TestServer, _ name: String, _ scopes: Set<TokenScope>) async throws -> String {
        try await TokenAdministration.create(database: server.database, name: name, scopes: scopes, lifetime: nil, logger: quietLogger).secret
    }

    static func audit(_ server: TestServer, admin: String, _ query: String) async throws -> [[String: Any]] {
        let answer = try await server.raw(.get, "/api/v1/audit?" + query, headers: ["Authorization": "Bearer \(admin)"])
        #expect(answer.status == 200, "\(answer.text)")
        return ((answer.object["data"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
    }

    static func changes(_ entry: [String: Any]) -> [String: [String?]] {
        var result: [String: [String?]] = [:]
        for change in entry["changes"] as? [[String: Any]] ?? [] {
            result[change["field"] as? String ?? ""] = [change["before"] as? String, change["after"] as? String]
        }
        return result
    }

    @Test("A user created and edited twice: three entries, newest first, with token, client, request id and before/after", arguments: Backend.allCases)
    func userHistory(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let alice = try await Self.token(server, "alice-roster", [.read, .write])
            let admin = try await Self.token(server, "auditor", [.admin])
            let user = try await server.repository().createUser(UserDraft(name: "Ana", email: "ana@example.com"))
            let headers: HTTPHeaders = ["Authorization": "Bearer \(alice)", "Content-Type": "application/json",
                                        "User-Agent": "roster/1.0", "X-Request-ID": "req-42"]
            for (name, role) in [("Ana B.", "admin"), ("Ana Beta", "admin")] {
                let body = #"{"name":"\#(name)","email":"ana@example.com","role":"\#(role)","status":"active"}"#
                #expect(try await server.raw(.put, "/api/v1/users/\(user.id)", headers: headers, body: .json(body)).status == 200)
            }
            let entries = try await Self.audit(server, admin: admin, "resource=user&resource_id=\(user.id)")
            #expect(entries.map { $0["action"] as? String } == ["update", "update", "create"])
            #expect(entries.map { $0["token"] as? String } == ["alice-roster", "alice-roster", "bootstrap"])
            #expect(Self.changes(entries[0]) == ["name": ["Ana B.", "Ana Beta"]])
            #expect(Self.changes(entries[1]) == ["name": ["Ana", "Ana B."], "role": ["member", "admin"]])
            #expect(Self.changes(entries[2])["email"] == [nil, "ana@example.com"])
            #expect(entries[0]["client"] as? String == "127.0.0.1 roster/1.0")
            #expect(entries[0]["request_id"] as? String == "req-42")
            #expect(entries[0]["via"] as? String == "api")
            let seqs = entries.compactMap { $0["seq"] as? Int }
            #expect(seqs == seqs.sorted(by: >))

            // Filters and paging.
            #expect(try await Self.audit(server, admin: admin, "token=alice-roster").count == 2)
            #expect(try await Self.audit(server, admin: admin, "action=create&resource=user").count == 1)
            let first = try await server.raw(.get, "/api/v1/audit?limit=1", headers: ["Authorization": "Bearer \(admin)"])
            let next = try #require((first.object["data"] as? [String: Any])?["next_before"] as? Int)
            #expect(try await Self.audit(server, admin: admin, "limit=200&before=\(next)").count == 2)
            for bad in ["limit=0", "limit=201", "before=0", "before=9007199254740992", "since=yesterday", "resource=users", "action=rename"] {
                #expect(try await server.raw(.get, "/api/v1/audit?" + bad, headers: ["Authorization": "Bearer \(admin)"]).status == 400, "\(bad)")
            }
            // The admin scope only.
            let refused = try await server.raw(.get, "/api/v1/audit", headers: ["Authorization": "Bearer \(alice)"])
            #expect(refused.status == 403 && refused.errorEnvelope?.message.contains("“admin”") == true)
        }
    }

    @Test("A refused write leaves no entry; group writes and memberships are recorded", arguments: Backend.allCases)
    func refusedWritesLeaveNothing(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let admin = try await Self.token(server, "auditor", [.admin])
            let ana = try await server.repository().createUser(UserDraft(name: "Ana", email: "ana@example.com"))
            let bo = try await server.repository().createUser(UserDraft(name: "Bo", email: "bo@example.com"))
            let before = try await Self.audit(server, admin: admin, "limit=200").count
            let taken = try await server.call(.put, "/api/v1/users/\(bo.id)", #"{"name":"Bo","email":"ana@example.com"}"#)
            #expect(taken.status == 409)
            #expect(try await server.call(.delete, "/api/v1/users/nobody").status == 404)
            #expect(try await Self.audit(server, admin: admin, "limit=200").count == before)

            let group = try await server.createGroup("Night shift")
            #expect(try await server.call(.post, "/api/v1/groups/\(group.id)/members", #"{"add":["\#(ana.id)","\#(bo.id)"]}"#).status == 200)
            #expect(try await server.call(.delete, "/api/v1/groups/\(group.id)/members/\(bo.id)").status == 200)
            #expect(try await server.call(.put, "/api/v1/groups/\(group.id)", #"{"name":"Late shift"}"#).status == 200)
            let entries = try await Self.audit(server, admin: admin, "resource=group&resource_id=\(group.id)")
            #expect(entries.map { $0["action"] as? String } == ["update", "members", "members", "create"])
            #expect(Self.changes(entries[0]) == ["name": ["Night shift", "Late shift"]])
            #expect(Self.changes(entries[1]) == ["members_removed": [bo.id, nil]])
            #expect(Self.changes(entries[2]) == ["members_added": [nil, "\(ana.id),\(bo.id)"]])
        }
    }

    @Test("A membership change is in each member's own history too (Roster API and SCIM), with the group's name", arguments: Backend.allCases)
    func membershipsInTheUsersHistory(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let admin = try await Self.token(server, "auditor", [.admin])
            let okta = try await Self.token(server, "okta", [.scim])
            let ana = try await server.repository().createUser(UserDraft(name: "Ana", email: "ana@example.com"))
            let bo = try await server.repository().createUser(UserDraft(name: "Bo", email: "bo@example.com"))
            let night = try await server.createGroup("Night shift")
            #expect(try await server.call(.post, "/api/v1/groups/\(night.id)/members", #"{"add":["\#(ana.id)","\#(bo.id)"]}"#).status == 200)
            #expect(try await server.call(.delete, "/api/v1/groups/\(night.id)/members/\(bo.id)").status == 200)
            #expect(try await server.call(.put, "/api/v1/groups/\(night.id)/members/\(bo.id)").status == 200)
            #expect(try await server.call(.put, "/api/v1/groups/\(night.id)/members/\(bo.id)").status == 200, "a second time changes nothing")
            let created = try await server.raw(.post, "/scim/v2/Groups", headers: ["Authorization": "Bearer \(okta)", "Content-Type": "application/scim+json"],
                                               body: .json(#"{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Pharmacy","members":[{"value":"\#(ana.id)"}]}"#))
            #expect(created.status == 201, "\(created.text)")
            let pharmacy = try #require(created.object["id"] as? String)
            let patch = try await server.raw(.patch, "/scim/v2/Groups/\(pharmacy)", headers: ["Authorization": "Bearer \(okta)", "Content-Type": "application/scim+json"],
                                             body: .json(#"{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"remove","path":"members[value eq \"\#(ana.id)\"]"}]}"#))
            #expect(patch.status == 200 || patch.status == 204, "\(patch.text)")

            let anas = try await Self.audit(server, admin: admin, "resource=user&resource_id=\(ana.id)")
            #expect(anas.map { $0["action"] as? String } == ["members", "members", "members", "create"])
            #expect(anas.prefix(3).map(Self.changes) == [
                ["member_of": ["Pharmacy", nil]], ["member_of": [nil, "Pharmacy"]], ["member_of": [nil, "Night shift"]],
            ])
            #expect(anas.prefix(2).allSatisfy { $0["token"] as? String == "okta" && $0["via"] as? String == "scim" })
            let bos = try await Self.audit(server, admin: admin, "resource=user&resource_id=\(bo.id)")
            #expect(bos.map { $0["action"] as? String } == ["members", "members", "members", "create"], "the repeated PUT left nothing")
            #expect(bos.prefix(3).map(Self.changes) == [
                ["member_of": [nil, "Night shift"]], ["member_of": ["Night shift", nil]], ["member_of": [nil, "Night shift"]],
            ])
            // The group's own entries stay as they were: one per change, with the ids.
            let groups = try await Self.audit(server, admin: admin, "resource=group&resource_id=\(night.id)")
            #expect(groups.map { $0["action"] as? String } == ["members", "members", "members", "create"])
        }
    }

    @Test("A SCIM PATCH is audited with its changed fields; SCIM Bulk's operations each get one", arguments: Backend.allCases)
    func scimAudited(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let admin = try await Self.token(server, "auditor", [.admin])
            let okta = try await Self.token(server, "okta", [.scim])
            func scim(_ method: HTTPMethod, _ path: String, _ body: String) async throws -> RawAnswer {
                try await server.raw(method, "/scim/v2" + path, headers: ["Authorization": "Bearer \(okta)", "Content-Type": "application/scim+json"], body: .json(body))
            }
            let created = try await scim(.post, "/Users", scimUserJSON("ana", email: "ana@example.com", extra: #""title":"Nurse","name":{"givenName":"Ana","familyName":"Lima"}"#))
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(created.object["id"] as? String)
            let patch = try await scim(.patch, "/Users/\(id)", #"""
                {"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[
                 {"op":"replace","path":"title","value":"Head nurse"},{"op":"replace","path":"active","value":false}]}
                """#)
            #expect(patch.status == 200, "\(patch.text)")
            let entries = try await Self.audit(server, admin: admin, "resource_id=\(id)")
            #expect(entries.map { $0["action"] as? String } == ["update", "create"])
            #expect(entries.allSatisfy { $0["token"] as? String == "okta" && $0["via"] as? String == "scim" })
            let changed = Self.changes(entries[0])
            #expect(changed["scim.title"] == [#""Nurse""#, #""Head nurse""#], "\(changed)")
            #expect(changed["status"] == ["active", "suspended"], "\(changed)")
            #expect(changed["name"] == nil, "unchanged fields are not listed: \(changed)")

            let bulk = try await scim(.post, "/Bulk", #"""
                {"schemas":["urn:ietf:params:scim:api:messages:2.0:BulkRequest"],"Operations":[
                 {"method":"POST","path":"/Users","bulkId":"u1","data":{"userName":"b1","emails":[{"value":"b1@example.org"}]}},
                 {"method":"POST","path":"/Users","bulkId":"u2","data":{"userName":"b2"}},
                 {"method":"DELETE","path":"/Users/\#(id)"}]}
                """#)
            #expect(bulk.status == 200, "\(bulk.text)")
            let after = try await Self.audit(server, admin: admin, "token=okta")
            #expect(after.prefix(2).map { $0["action"] as? String } == ["delete", "create"], "the failed operation left nothing")
            #expect(after.count == 4)
        }
    }

    @Test("The log is append-only in the database itself; a write whose entry cannot be stored fails and leaves nothing", arguments: Backend.allCases)
    func appendOnlyAndRequired(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            _ = try await server.repository().createUser(UserDraft(name: "Ana", email: "ana@example.com"))
            try await Self.onDatabase(server, backend) { execute in
                await #expect(throws: (any Error).self) { try await execute("UPDATE audit_log SET token = 'someone-else'") }
                try await execute("ALTER TABLE audit_log RENAME TO audit_log_gone")
            }
            let refused = try await server.call(.post, "/api/v1/users", #"{"name":"Bo","email":"bo@example.com"}"#)
            #expect(refused.status == 500)
            try await Self.onDatabase(server, backend) { execute in try await execute("ALTER TABLE audit_log_gone RENAME TO audit_log") }
            let page = try await server.repository().listUsers(UserQuery(page: 1, perPage: 50))
            #expect(page.items.map(\.name) == ["Ana"], "the user whose entry could not be written was not created")
        }
    }

    /// Runs SQL statements on the server's database, outside the server.
    static func onDatabase(_ server: TestServer, _ backend: Backend, _ body: (@escaping @Sendable (String) async throws -> Void) async throws -> Void) async throws {
        switch backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: server.databasePath)
            try await body { sql in try await queue.write { db in try db.execute(sql: sql) } }
        case .postgres:
            let database = try await PostgresDatabase.open(url: server.database, logger: quietLogger, workDeadline: PostgresDatabase.notUnderTest)
            do {
                try await body { sql in _ = try await database.client.query(PostgresQuery(unsafeSQL: sql), logger: quietLogger) }
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        }
    }

    @Test("Retention prunes by age; roster-server audit prints the entries")
    func retentionAndCommand() async throws {
        let now = SettableNow(Date())
        try await withServer(now: now.function) { server in
            _ = try await server.repository().createUser(UserDraft(name: "Ana", email: "ana@example.com"))
            now.advance(by: 7200)
            _ = try await server.repository().createUser(UserDraft(name: "Bo", email: "bo@example.com"))
            let store = try SQLiteStore(path: server.databasePath)
            #expect(try await store.pruneAudit(before: now.date.addingTimeInterval(-3600)) == 1)
            let left = try await store.auditEntries(AuditQuery())
            #expect(left.map { entry in entry.changes.first { $0.field == "name" }?.after } == ["Bo"])

            let lines = try await AuditAdministration.lines(
                database: server.databasePath, since: nil, resource: "user", resourceID: nil, token: nil, limit: 10, logger: quietLogger)
            #expect(lines.count == 1)
            #expect(lines.first?.contains("bootstrap create user") == true, "\(lines)")
            #expect(lines.first?.contains(#"name: — → "Bo""#) == true, "\(lines)")
        }
    }

    @Test("A SIGKILL of roster-server right after the answers loses neither a write nor its entry", arguments: Backend.allCases)
    func killAfterAnswer(backend: Backend) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-audit-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var database = directory.appendingPathComponent("users.sqlite").path
        var postgresName: String?
        if backend == .postgres { (database, postgresName) = try await TestPostgres.shared.createDatabase() }
        let server = try ServerProcess(arguments: ["--port", "0", "--database", database, "--token", "kill-test", "--log-level", "warning"])
        let url = try await server.waitForListening()
        let users = RosterAPIDirectory(client: APIClient(baseURL: url, token: "kill-test", transport: TestTransport.shared, logger: quietLogger))
        // Creates and edits from five clients at once; the ids of every write answered 2xx.
        let acknowledged = try await withThrowingTaskGroup(of: (created: [String], edited: [String]).self) { group in
            for worker in 0..<5 {
                group.addTask {
                    var created: [String] = [], edited: [String] = []
                    for index in 0..<10 {
                        let user = try await users.createUser(UserDraft(name: "Kept \(worker)-\(index)", email: "k\(worker)-\(index)@example.com"))
                        created.append(user.id)
                        if index.isMultiple(of: 2) {
                            _ = try await users.updateUser(id: user.id, with: UserDraft(name: "Edited \(worker)-\(index)", email: user.email))
                            edited.append(user.id)
                        }
                    }
                    return (created, edited)
                }
            }
            return try await group.reduce(into: (created: [String](), edited: [String]())) { $0.created += $1.created; $0.edited += $1.edited }
        }
        server.signal(SIGKILL)
        let exit = await server.waitForExit()
        #expect(exit.reason == .uncaughtSignal && exit.status == SIGKILL)

        let (entries, stored) = try await Self.afterTheKill(backend: backend, database: database)
        if let postgresName { try? await TestPostgres.shared.dropDatabase(named: postgresName) }
        #expect(stored.count == 50 && Set(stored.map(\.id)) == Set(acknowledged.created))
        #expect(Set(stored.filter { $0.name.hasPrefix("Edited") }.map(\.id)) == Set(acknowledged.edited))
        let creates = entries.filter { $0.action == "create" }, updates = entries.filter { $0.action == "update" }
        #expect(creates.count == 50 && Set(creates.map(\.resourceID)) == Set(acknowledged.created))
        #expect(updates.count == 25 && Set(updates.map(\.resourceID)) == Set(acknowledged.edited))
        #expect(entries.count == 75 && entries.allSatisfy { $0.token == "bootstrap" })
    }

    /// The audit entries and the users, read from the database of a server that is gone: the
    /// entries from the store, the users through a new server on the same database.
    static func afterTheKill(backend: Backend, database: String) async throws -> ([AuditEntry], [User]) {
        let entries: [AuditEntry]
        switch backend {
        case .sqlite:
            entries = try await SQLiteStore(path: database).auditEntries(AuditQuery(limit: 200))
        case .postgres:
            let opened = try await PostgresDatabase.open(url: database, logger: quietLogger, workDeadline: PostgresDatabase.notUnderTest)
            do {
                entries = try await PostgresStore(database: opened).auditEntries(AuditQuery(limit: 200))
            } catch {
                await opened.close()
                throw error
            }
            await opened.close()
        }
        let server = try await UserAPIServer.start(ServerConfiguration(databasePath: database, token: "kill-test"))
        do {
            let users = RosterAPIDirectory(client: APIClient(baseURL: server.url, token: "kill-test", transport: TestTransport.shared, logger: quietLogger))
            let stored = try await users.listUsers(UserQuery(page: 1, perPage: 200)).items
            await server.shutdown()
            return (entries, stored)
        } catch {
            await server.shutdown()
            throw error
        }
    }
}
