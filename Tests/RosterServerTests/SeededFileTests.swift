import Foundation
import GRDB
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing

/// A database that does not exist yet is seeded in a staging file with no journal and linked
/// into place (`SeededFile`); it must hold exactly what seeding an open database holds.
@Suite("Seeded file: a new database built beside its path and linked into place")
struct SeededFileTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-seeded-\(UUID().uuidString)")

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func rows(_ sql: String, in pool: DatabasePool) throws -> [Row] {
        try pool.read { db in try Row.fetchAll(db, sql: sql) }
    }

    /// The groups of `directory` inserted row by row, their member counts kept by the trigger.
    private func insertRowByRow(_ groups: [BulkGroup], of users: [User], into store: SQLiteStore) async throws {
        try await store.write { db in
            for bulkGroup in groups {
                let group = bulkGroup.group
                try db.execute(literal: """
                    INSERT INTO groups (id, name, name_key, created_at, updated_at)
                    VALUES (\(group.id), \(group.name), \(SortKey.of(group.name)),
                            \(Milliseconds.of(group.createdAt)), \(Milliseconds.of(group.updatedAt)))
                    """)
                let groupSeq = db.lastInsertedRowID
                for member in bulkGroup.members {
                    try db.execute(literal: """
                        INSERT INTO memberships (group_seq, user_seq) SELECT \(groupSeq), seq FROM users WHERE id = \(users[member].id)
                        """)
                }
            }
        }
    }

    @Test("the same users, groups, counts, search index and schema as inserting them one by one through the triggers")
    func sameAsRowByRow() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = DemoData.directory(userCount: 9000)
        #expect(try SeededFile.create(path: path("new/seeded.sqlite"), directory: demo))
        let seeded = try SQLiteStore(path: path("new/seeded.sqlite"))
        let inPlace = try SQLiteStore(path: path("in-place.sqlite"))
        try await inPlace.insertAll(demo.users)
        try await insertRowByRow(demo.groups, of: demo.users, into: inPlace)

        for sql in ["SELECT type, name, sql FROM sqlite_master ORDER BY type, name",
                    "SELECT seq, id, name, email, role, status, created_at, updated_at, name_key, email_key, json FROM users ORDER BY seq",
                    "SELECT seq, id, name, name_key, member_count, created_at, updated_at, revision, scim FROM groups ORDER BY seq",
                    "SELECT group_seq, user_seq FROM memberships ORDER BY group_seq, user_seq",
                    "SELECT role, status, n FROM users_count ORDER BY role, status",
                    "SELECT gram, role, status, n FROM users_short_count ORDER BY gram, role, status",
                    "SELECT k, v FROM users_search_config ORDER BY k",
                    "SELECT identifier FROM grdb_migrations ORDER BY identifier"] {
            #expect(try rows(sql, in: seeded.pool) == rows(sql, in: inPlace.pool), "\(sql)")
        }
        for query in [UserQuery(search: "ivan"), UserQuery(search: "a", sort: .email), UserQuery(search: "mar", role: .admin)] {
            #expect(try await seeded.list(query) == inPlace.list(query), "\(query)")
        }
        let engineering = try #require(demo.groups.first { $0.group.name == "Engineering" })
        let members = try await seeded.membersEnvelope(groupID: engineering.group.id, query: UserQuery(perPage: 200))
        #expect(try await members == inPlace.membersEnvelope(groupID: engineering.group.id, query: UserQuery(perPage: 200)))
        let page = try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: Data(members)).data
        #expect(page?.total == engineering.members.count)
        #expect(page?.items.count == 200)
        // Opened by the server, it is a WAL database like any other, and nothing is left beside it.
        let journalMode: String? = try rows("PRAGMA journal_mode", in: seeded.pool).first?[0]
        #expect(journalMode == "wal")
        #expect(!FileManager.default.fileExists(atPath: path("new/seeded.sqlite.seeding")))
        try seeded.pool.close()
        try inPlace.pool.close()
    }

    @Test("an existing file is never replaced, and a staging file left by a crash is cleared")
    func neverReplaces() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("left by a crash".utf8).write(to: URL(fileURLWithPath: path("db.sqlite.seeding")))
        #expect(try SeededFile.create(path: path("db.sqlite"), directory: DemoData.directory(userCount: 10)))
        let first = try Data(contentsOf: URL(fileURLWithPath: path("db.sqlite")))

        #expect(try !SeededFile.create(path: path("db.sqlite"), directory: DemoData.directory(userCount: 20)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("db.sqlite"))) == first)
        #expect(!FileManager.default.fileExists(atPath: path("db.sqlite.seeding")))
        let store = try SQLiteStore(path: path("db.sqlite"))
        #expect(try await store.list(UserQuery()).total == 10)
        try store.pool.close()
    }

    @Test("two builds of one new path at once: one makes the file, the other finds it made")
    func twoAtOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = path("shared.sqlite")
        let results = await withTaskGroup(of: Result<Bool, any Error>.self) { group in
            for count in [3000, 4000] {
                group.addTask {
                    await Task.detached { Result { try SeededFile.create(path: target, directory: DemoData.directory(userCount: count)) } }.value
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let created = try results.map { try $0.get() }
        #expect(created.sorted { !$0 && $1 } == [false, true])
        let store = try SQLiteStore(path: target)
        #expect([3000, 4000].contains(try await store.list(UserQuery()).total))
        let integrity: String? = try rows("PRAGMA integrity_check", in: store.pool).first?[0]
        #expect(integrity == "ok")
        #expect(!FileManager.default.fileExists(atPath: target + ".seeding"))
        try store.pool.close()
    }

    @Test("a load with a taken email fails whole: the open database keeps none of it, no file is made")
    func takenEmailFailsWhole() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var users = DemoData.users(count: BulkLoadChunking.chunkSize + 10)
        users[BulkLoadChunking.chunkSize + 5].email = users[3].email
        #expect(throws: DatabaseError.self) { try SeededFile.create(path: path("new.sqlite"), directory: BulkDirectory(users: users)) }
        #expect(!FileManager.default.fileExists(atPath: path("new.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: path("new.sqlite.seeding")))

        let store = try SQLiteStore(path: path("open.sqlite"))
        await #expect(throws: DatabaseError.self) { try await store.bulkInsert(users) }
        #expect(try await store.list(UserQuery()).total == 0)
        #expect(try rows("SELECT * FROM users_short_count WHERE n > 0", in: store.pool).isEmpty)
        try store.pool.close()
    }

    @Test("a server started with --seed on a missing file creates it seeded; started again, it keeps it")
    func serverSeedsNewFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let logs = LogRecorder()
        let configuration = ServerConfiguration(databasePath: path("server.sqlite"), token: "t", seedCount: 300)
        let server = try await UserAPIServer.start(configuration, logger: logs.logger(level: .notice))
        let users = RosterAPIDirectory(client: APIClient(
            baseURL: server.url, token: "t", transport: TestTransport.shared, retryPolicy: .never, logger: quietLogger))
        #expect(try await users.listUsers(UserQuery()).total == 300)
        _ = try await users.createUser(UserDraft(name: "Kept", email: "kept@example.com"))
        await server.shutdown()
        #expect(logs.text.contains("seeded demo users"))

        let again = try await UserAPIServer.start(configuration)
        let reopened = RosterAPIDirectory(client: APIClient(
            baseURL: again.url, token: "t", transport: TestTransport.shared, retryPolicy: .never, logger: quietLogger))
        #expect(try await reopened.listUsers(UserQuery()).total == 301)
        await again.shutdown()
    }
}
