import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// Lists that may walk many rows run with a time budget (`SQLiteStore.queryBudget`); past it the
/// query is stopped and the call answers 503 `query_too_slow`, while quick calls are untouched.
@Suite("Query budget: a list past its budget is stopped")
struct QueryBudgetTests {
    /// A two-character pattern only one user has, whose name sorts last: its page walks the
    /// whole name index (common letters fill a page after a few rows and would not run long).
    static let rareUser = UserDraft(name: "Zzqx Rare", email: "rare@example.com")

    @Test("with a budget of a microsecond, a rare short search is stopped with 503 query_too_slow; quick calls still answer")
    func searchPastBudget() async throws {
        try await withServer(seedCount: 3000, listCacheEntries: 0, queryBudget: .microseconds(1)) { server in
            _ = try await server.repository().createUser(Self.rareUser)
            let answer = try await server.raw(.get, "/api/v1/users?q=qx", headers: TestServer.authorization)
            #expect(answer.status == 503)
            #expect(answer.header("Retry-After") == nil)
            #expect(answer.errorEnvelope?.code == "query_too_slow")
            #expect(answer.errorEnvelope?.message.contains("type more characters") == true)

            let deep = try await server.raw(.get, "/api/v1/users?page=50&per_page=50", headers: TestServer.authorization)
            #expect(deep.status == 503)
            #expect(deep.errorEnvelope?.code == "query_too_slow")

            // The first page and a get are quick reads: no budget, so they answer.
            let first = try await server.repository().listUsers(UserQuery(perPage: 50))
            #expect(first.total == 3001)
            #expect(try await server.repository().user(id: first.items[0].id) == first.items[0])
        }
    }

    @Test("a SCIM filter the indexes cannot narrow, past its budget, answers 400 tooMany, not a timeout", arguments: Backend.allCases)
    func scimFilterPastBudget(backend: Backend) async throws {
        // PostgreSQL's least timeout is 1 ms: enough users that reading them all takes longer.
        try await withServer(backend: backend, seedCount: 20000, queryBudget: .microseconds(1)) { server in
            let filter = #"name.formatted co "zzqx" or emails.value ew "qx" or displayName ew "qx""#
            let answer = try await server.scim(.get, "/Users?count=10&filter=" + filter.queryEncoded)
            #expect(answer.status == 400, "\(answer.text)")
            #expect(answer.isSCIMError)
            #expect(answer.scimType == "tooMany")
        }
    }

    @Test("with the default budget the same calls answer in full")
    func searchWithinBudget() async throws {
        try await withServer(seedCount: 3000, listCacheEntries: 0) { server in
            let users = server.repository()
            let rare = try await users.createUser(Self.rareUser)
            #expect(try await users.listUsers(UserQuery(search: "qx")).items == [rare])
            #expect(try await users.listUsers(UserQuery(page: 50, perPage: 50)).items.count == 50)
        }
    }

    @Test("a stopped read leaves its connection usable: the next read on the store answers")
    func connectionReusedAfterInterrupt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-budget-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("users.sqlite").path
        let writer = try SQLiteStore(path: path)
        try await writer.bulkInsert(DemoData.users(count: 3000))
        _ = try await writer.create(Self.rareUser, at: Date())
        let store = try SQLiteStore(path: path, queryBudget: .microseconds(1))
        await #expect(throws: StoreError.queryTooSlow) { try await store.list(UserQuery(search: "qx")) }
        // Quick reads run on the same connections (one is kept idle) with no deadline set.
        #expect(try await store.list(UserQuery(perPage: 10)).total == 3001)
        #expect(try await store.isEmpty() == false)
        try store.pool.close()
        try writer.pool.close()
    }
}
