import Foundation
import GRDB
import RosterKit
@testable import RosterServer
import Testing

/// A filtered SCIM page with no `sortBy` on SQLite is read either through the filter's index
/// (every match gathered and sorted by `seq`) or by walking the table in `seq` order, whichever
/// the counts say is cheaper (`UserStore.walksTableInOrder`): both must give the same page.
@Suite("SCIM pages on SQLite: walking the table in order gives the index's page")
struct SCIMTableOrderTests {
    @Test("every filter, every page: the table walk and the index agree, and the store answers that page")
    func samePages() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-scim-order-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try UserStore(path: directory.appendingPathComponent("users.sqlite").path)
        let users = DemoData.users(count: 3000)
        try await store.bulkInsert(users)
        let filters = ["active eq true", #"userName sw "a""#, #"userName sw "a" and active eq true"#,
                       #"name.formatted co "an""#, "userName eq \"\(users[1234].email)\"", #"emails.value ew "example.org""#]
        var walked = 0
        for text in filters {
            for (start, count) in [(1, 50), (40, 100), (1, 1000), (2500, 50)] {
                let query = SCIMListQuery(filter: try SCIMFilterParser.parse(text), sort: nil, startIndex: start, count: count)
                let plan = try SCIMListPlan(select: "users.id", columns: SCIMUserColumns(dialect: SQLiteSCIMDialect()), query: query)
                let arguments = SQLiteSCIMDialect.statementArguments(plan.pageArguments)
                let tableOrderSQL = try #require(plan.tableOrderPageSQL)
                let (viaIndex, viaTable, total) = try await store.pool.read { db in
                    (try String.fetchAll(db, sql: plan.pageSQL, arguments: arguments),
                     try String.fetchAll(db, sql: tableOrderSQL, arguments: arguments),
                     try Int.fetchOne(db, sql: plan.countSQL, arguments: SQLiteSCIMDialect.statementArguments(plan.countArguments)) ?? 0)
                }
                #expect(viaTable == viaIndex, "\(text) from \(start)")
                let answer = try await store.scimUsers(query)
                #expect(answer.total == total)
                #expect(answer.records.map(\.user.id) == viaIndex, "\(text) from \(start)")
                if UserStore.walksTableInOrder(matches: total, users: users.count, through: start - 1 + count) { walked += 1 }
            }
        }
        // Both ways were taken.
        #expect(walked > 0)
        #expect(walked < filters.count * 4)
        try store.pool.close()
    }

    @Test("the walk is chosen for dense matches near the start, the index for sparse ones or deep pages")
    func choice() {
        #expect(UserStore.walksTableInOrder(matches: 94_242, users: 1_000_000, through: 50))
        #expect(!UserStore.walksTableInOrder(matches: 94_242, users: 1_000_000, through: 5050))
        #expect(!UserStore.walksTableInOrder(matches: 1, users: 1_000_000, through: 50))
        #expect(!UserStore.walksTableInOrder(matches: 0, users: 1_000_000, through: 50))
    }
}
