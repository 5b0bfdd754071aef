import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// Lists that may walk many rows run with a time budget (`UserStore.queryBudget`); past it the
/// query is stopped and the call answers 503 `query_too_slow`, while quick calls are untouched.
@Suite("Query budget: a list past its budget is stopped")
struct QueryBudgetTests {
    @Test("with a budget of a microsecond, a short search is stopped with 503 query_too_slow; quick calls still answer")
    func searchPastBudget() async throws {
        try await withServer(seedCount: 3000, listCacheEntries: 0, queryBudget: .microseconds(1)) { server in
            let answer = try await server.raw(.get, "/api/v1/users?q=a", headers: TestServer.authorization)
            #expect(answer.status == 503)
            #expect(answer.header("Retry-After") == nil)
            #expect(answer.errorEnvelope?.code == "query_too_slow")
            #expect(answer.errorEnvelope?.message.contains("type more characters") == true)

            let deep = try await server.raw(.get, "/api/v1/users?page=50&per_page=50", headers: TestServer.authorization)
            #expect(deep.status == 503)
            #expect(deep.errorEnvelope?.code == "query_too_slow")

            // The first page and a get are quick reads: no budget, so they answer.
            let first = try await server.repository().list(UserQuery(perPage: 50))
            #expect(first.total == 3000)
            #expect(try await server.repository().get(id: first.items[0].id) == first.items[0])
        }
    }

    @Test("with the default budget the same calls answer in full")
    func searchWithinBudget() async throws {
        try await withServer(seedCount: 3000, listCacheEntries: 0) { server in
            let users = server.repository()
            let found = try await users.list(UserQuery(search: "a"))
            #expect(found.total > 0)
            #expect(try await users.list(UserQuery(page: 50, perPage: 50)).items.count == 50)
        }
    }

    @Test("a stopped read leaves its connection usable: the next read on the store answers")
    func connectionReusedAfterInterrupt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-budget-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("users.sqlite").path
        try await UserStore(path: path).bulkInsert(DemoData.users(count: 3000))
        let store = try UserStore(path: path, queryBudget: .microseconds(1))
        await #expect(throws: StoreError.queryTooSlow) { try await store.list(UserQuery(search: "e")) }
        // Quick reads run on the same connections (one is kept idle) with no deadline set.
        #expect(try await store.list(UserQuery(perPage: 10)).total == 3000)
        #expect(try await store.isEmpty() == false)
        try store.pool.close()
    }
}
