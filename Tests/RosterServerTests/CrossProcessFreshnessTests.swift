import Foundation
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two servers on one SQLite file, each with its list cache on: a write through one is in the
/// very next list through the other. The lists are asked twice before each write so that a
/// cache that missed the other process's commit would certainly answer from memory.
@Suite("Freshness across processes: two servers on one SQLite file")
struct CrossProcessFreshnessTests {
    private static let token = "two-servers"

    private static func repository(_ url: URL) -> RosterAPIDirectory {
        RosterAPIDirectory(client: APIClient(baseURL: url, token: token, transport: TestTransport.shared, logger: quietLogger))
    }

    /// Lists `query` twice through `users` (the second answer can come from the cache) and
    /// returns the page.
    private static func listedTwice(_ users: RosterAPIDirectory, _ query: UserQuery) async throws -> Page<User> {
        _ = try await users.listUsers(query)
        return try await users.listUsers(query)
    }

    /// Create, update and delete through `writer`, each checked in the next lists through `reader`.
    private static func writesShow(through writer: RosterAPIDirectory, in reader: RosterAPIDirectory, seeded: Int) async throws {
        let everyone = UserQuery(perPage: 200)
        let search = UserQuery(search: "crossproc")
        #expect(try await listedTwice(reader, everyone).total == seeded)
        #expect(try await listedTwice(reader, search).total == 0)

        let created = try await writer.createUser(UserDraft(name: "Crossproc Person", email: "crossproc@example.com"))
        let afterCreate = try await reader.listUsers(everyone)
        #expect(afterCreate.total == seeded + 1, "the other server's list missed a create")
        #expect(afterCreate.items.contains(created))
        #expect(try await reader.listUsers(search).items == [created])

        #expect(try await listedTwice(reader, UserQuery(search: "renamedproc")).total == 0)
        let updated = try await writer.updateUser(id: created.id, with: UserDraft(name: "Renamedproc", email: "renamedproc@example.com"))
        #expect(try await reader.listUsers(everyone).items.contains(updated), "the other server's list missed an update")
        #expect(try await reader.listUsers(search).items.isEmpty)
        #expect(try await reader.listUsers(UserQuery(search: "renamedproc")).items == [updated])

        _ = try await listedTwice(reader, everyone)
        _ = try await writer.deleteUser(id: updated.id)
        let afterDelete = try await reader.listUsers(everyone)
        #expect(afterDelete.total == seeded, "the other server's list missed a delete")
        #expect(!afterDelete.items.contains { $0.id == updated.id })
        #expect(try await reader.listUsers(UserQuery(search: "renamedproc")).items.isEmpty)
    }

    @Test("a create, update and delete through roster-server A are in the next list through roster-server B, and back")
    func twoServerProcesses() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-two-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("users.sqlite").path
        let arguments = ["--port", "0", "--database", path, "--token", Self.token, "--log-level", "warning"]
        let first = try ServerProcess(arguments: arguments + ["--seed", "20"])
        let a = Self.repository(try await first.waitForListening())
        let second = try ServerProcess(arguments: arguments)
        let b = Self.repository(try await second.waitForListening())
        defer {
            first.signal(SIGKILL)
            second.signal(SIGKILL)
        }

        try await Self.writesShow(through: a, in: b, seeded: 20)
        try await Self.writesShow(through: b, in: a, seeded: 20)
    }

    @Test("a roster-server process and an embedded server (as in a `roster` window) on one file see each other's writes")
    func processAndEmbeddedServer() async throws {
        try await withServer(seedCount: 15) { embedded in
            let process = try ServerProcess(arguments: [
                "--port", "0", "--database", embedded.databasePath, "--token", Self.token, "--log-level", "warning",
            ])
            defer { process.signal(SIGKILL) }
            let standalone = Self.repository(try await process.waitForListening())

            try await Self.writesShow(through: standalone, in: embedded.repository(), seeded: 15)
            try await Self.writesShow(through: embedded.repository(), in: standalone, seeded: 15)
        }
    }
}
