import Foundation
import GRDB
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing

/// A filtered SCIM page with no `sortBy` on SQLite is read either through the filter's index
/// (every match gathered and sorted by `seq`) or by walking the table in `seq` order up to a
/// bound, whichever the counts say is cheaper (`SQLiteStore.walkedFraction`): both must give the
/// same page, and a walk cut short by its bound must fall back to the index.
@Suite("SCIM pages on SQLite: walking the table in order gives the index's page")
struct SCIMTableOrderTests {
    private func pages(
        _ store: SQLiteStore, filter text: String, start: Int, count: Int
    ) async throws -> (viaIndex: [String], viaWalk: [String], total: Int, answer: [String]) {
        let query = SCIMListQuery(filter: try SCIMFilterParser.parse(text), sort: nil, startIndex: start, count: count)
        let plan = try SCIMListPlan(select: "users.id", columns: SCIMUserColumns(dialect: SQLiteSCIMDialect()), query: query)
        let walk = try #require(plan.tableOrderPage(upToSeq: .max))
        let (viaIndex, viaWalk, total) = try await store.pool.read { db in
            (try String.fetchAll(db, sql: plan.pageSQL, arguments: SQLiteSCIMDialect.statementArguments(plan.pageArguments)),
             try String.fetchAll(db, sql: walk.sql, arguments: SQLiteSCIMDialect.statementArguments(walk.arguments)),
             try Int.fetchOne(db, sql: plan.countSQL, arguments: SQLiteSCIMDialect.statementArguments(plan.countArguments)) ?? 0)
        }
        let answer = try await store.scimUsers(query)
        #expect(answer.total == total)
        return (viaIndex, viaWalk, total, answer.records.map(\.user.id))
    }

    /// A store in a folder of its own, closed and removed after `body`.
    private func withStore(_ body: (SQLiteStore) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-scim-order-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("users.sqlite").path,
                                    queryBudget: QueryBudget.notUnderTest)
        try await body(store)
        try store.pool.close()
    }

    @Test("every filter, every page: the whole walk and the index agree, and the store answers that page")
    func samePages() async throws {
        try await withStore { store in
            let users = DemoData.users(count: 3000)
            try await store.bulkInsert(users)
            let filters = ["active eq true", #"userName sw "a""#, #"userName sw "a" and active eq true"#,
                           #"name.formatted co "an""#, "userName eq \"\(users[1234].email)\"", #"emails.value ew "example.org""#]
            var walked = 0
            for text in filters {
                for (start, count) in [(1, 50), (40, 100), (1, 1000), (2500, 50)] {
                    let found = try await pages(store, filter: text, start: start, count: count)
                    #expect(found.viaWalk == found.viaIndex, "\(text) from \(start)")
                    #expect(found.answer == found.viaIndex, "\(text) from \(start)")
                    if SQLiteStore.walkedFraction(matches: found.total, users: users.count, through: start - 1 + count) != nil { walked += 1 }
                }
            }
            // Both ways were taken.
            #expect(walked > 0)
            #expect(walked < filters.count * 4)
        }
    }

    @Test("matches bunched at the end of the table: the bounded walk finds too few, and the index answers")
    func bunchedMatches() async throws {
        try await withStore { store in
            // Inserted oldest first, so the newest thousand are the table's last thousand rows.
            let users = DemoData.users(count: 3000).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            try await store.insertAll(users)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let since = formatter.string(from: users[1999].createdAt)
            let text = "meta.created gt \"\(since)\""
            let found = try await pages(store, filter: text, start: 1, count: 50)
            #expect(found.total == 1000)
            // The walk is chosen, reads at most a fifth of the table, and meets no match there.
            #expect(SQLiteStore.walkedFraction(matches: 1000, users: 3000, through: 50) == 0.2)
            #expect(found.answer == found.viaIndex)
            #expect(found.answer == users[2000..<2050].map(\.id))
        }
    }

    @Test("with no filter and no sortBy a page follows the table's own order: no sort of every row")
    func unfilteredPageIsNotSorted() async throws {
        try await withStore { store in
            let users = DemoData.users(count: 300)
            try await store.insertAll(users)
            let query = SCIMListQuery(filter: nil, sort: nil, startIndex: 101, count: 50)
            let plan = try SCIMListPlan(select: "users.id", columns: SCIMUserColumns(dialect: SQLiteSCIMDialect()), query: query)
            let steps = try await store.pool.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + plan.filterIndexPageSQL,
                                 arguments: SQLiteSCIMDialect.statementArguments(plan.pageArguments)).map { $0["detail"] as String }
            }
            // A sort step ("USE TEMP B-TREE FOR ORDER BY") read and sorted every user for each page.
            #expect(!steps.joined(separator: "; ").contains("TEMP B-TREE"), "\(steps)")
            let answer = try await store.scimUsers(query)
            #expect(answer.total == 300)
            #expect(answer.records.map(\.user.id) == users[100..<150].map(\.id))
        }
    }

    @Test("the walk is chosen for dense matches near the start, the index for sparse ones or deep pages")
    func choice() {
        #expect(SQLiteStore.walkedFraction(matches: 94_242, users: 1_000_000, through: 50) != nil)
        #expect(SQLiteStore.walkedFraction(matches: 94_242, users: 1_000_000, through: 5050) == nil)
        #expect(SQLiteStore.walkedFraction(matches: 1, users: 1_000_000, through: 50) == nil)
        #expect(SQLiteStore.walkedFraction(matches: 0, users: 1_000_000, through: 50) == nil)
        #expect(SQLiteStore.walkedFraction(matches: 1_000_000, users: 1_000_000, through: 300_000) == 1)
    }
}
