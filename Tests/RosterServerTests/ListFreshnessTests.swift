import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// The list answers are cached (`ListResponseCache`); these hold that a write is always seen
/// by the next read, whatever was asked before it.
@Suite("List freshness: every write is seen by the next list")
struct ListFreshnessTests {
    @Test("create, update and delete each show in the very next list of an already asked page", arguments: Backend.allCases)
    func writesShowAtOnce(backend: Backend) async throws {
        try await withServer(backend: backend, seedCount: 30) { server in
            let users = server.repository()
            let everyone = UserQuery(perPage: 200)
            let search = UserQuery(search: "zzcache")
            // Asked twice so the answers are certainly cached.
            for _ in 0..<2 {
                #expect(try await users.listUsers(everyone).total == 30)
                #expect(try await users.listUsers(search).total == 0)
            }

            let created = try await users.createUser(UserDraft(name: "Zzcache Person", email: "zzcache@example.com"))
            let afterCreate = try await users.listUsers(everyone)
            #expect(afterCreate.total == 31)
            #expect(afterCreate.items.contains(created))
            #expect(try await users.listUsers(search).items == [created])

            let updated = try await users.updateUser(id: created.id, with: UserDraft(name: "Renamed", email: "renamed@example.com"))
            #expect(try await users.listUsers(everyone).items.contains(updated))
            #expect(try await users.listUsers(search).items.isEmpty)
            #expect(try await users.listUsers(UserQuery(search: "renamed")).items == [updated])

            _ = try await users.deleteUser(id: updated.id)
            let afterDelete = try await users.listUsers(everyone)
            #expect(afterDelete.total == 30)
            #expect(!afterDelete.items.contains { $0.id == updated.id })
            #expect(try await users.listUsers(UserQuery(search: "renamed")).items.isEmpty)
        }
    }

    @Test("a refused write changes nothing, and the list still answers the same", arguments: Backend.allCases)
    func refusedWrite(backend: Backend) async throws {
        try await withServer(backend: backend, seedCount: 5) { server in
            let users = server.repository()
            let before = try await users.listUsers(UserQuery())
            let taken = before.items[0].email
            await #expect(throws: APIError.self) { try await users.createUser(UserDraft(name: "Dup", email: taken)) }
            #expect(try await users.listUsers(UserQuery()) == before)
        }
    }

    @Test("readers racing a writer never see a write undone: totals only grow, and each create is in the next list", arguments: Backend.allCases)
    func racingReadersAndWriter(backend: Backend) async throws {
        try await withServer(backend: backend, seedCount: 10) { server in
            let creates = 40
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let users = server.repository()
                    for index in 0..<creates {
                        let user = try await users.createUser(UserDraft(name: "Racer \(index)", email: "racer\(index)@example.com"))
                        let page = try await users.listUsers(UserQuery(perPage: 200))
                        #expect(page.total == 11 + index)
                        #expect(page.items.contains(user), "create \(index) missing from the next list")
                    }
                }
                for _ in 0..<4 {
                    group.addTask {
                        let users = server.repository()
                        var lastTotal = 0
                        while lastTotal < 10 + creates {
                            let total = try await users.listUsers(UserQuery(perPage: 200)).total
                            #expect(total >= lastTotal, "a list went back from \(lastTotal) to \(total) users")
                            lastTotal = max(lastTotal, total)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test("every committed write moves the database's write generation; a refused one does not")
    func writeGeneration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-generation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("users.sqlite").path)
        let now = Date()
        var generation = try await store.generation()
        func moved() async throws -> Bool {
            let now = try await store.generation()
            defer { generation = now }
            #expect(now >= generation, "the generation went back")
            return now != generation
        }
        let user = try await store.create(UserDraft(name: "A", email: "a@example.com"), at: now)
        #expect(try await moved())
        await #expect(throws: StoreError.emailTaken) { try await store.create(UserDraft(name: "B", email: "A@example.com"), at: now) }
        #expect(try await !moved())
        _ = try await store.update(id: user.id, with: UserDraft(name: "A2", email: "a@example.com"), at: now)
        #expect(try await moved())
        await #expect(throws: StoreError.notFound) { try await store.update(id: "nobody", with: UserDraft(name: "C", email: "c@example.com"), at: now) }
        #expect(try await !moved())
        _ = try await store.delete(id: user.id, at: Date())
        #expect(try await moved())
        await #expect(throws: StoreError.notFound) { try await store.delete(id: user.id, at: Date()) }
        #expect(try await !moved())
        try await store.insertAll([user])
        #expect(try await moved())
        try store.pool.close()
    }
}
