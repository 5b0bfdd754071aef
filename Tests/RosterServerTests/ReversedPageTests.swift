import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// Pages past the middle of a list are read from its end in the reversed order
/// (`ListPlan.readsFromEnd`); every page must still be exactly its slice of the whole list.
@Suite("Pages from the end: every page is its slice of the whole list")
struct ReversedPageTests {
    @Test("every sort, with and without a filter or a search: pages of 7 join into the list of 200", arguments: UserSort.sorted)
    func pagesJoin(sort: UserSort) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-reversed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("users.sqlite").path)
        try await store.bulkInsert(DemoData.users(count: 180))
        for filter in [UserQuery(sort: sort), UserQuery(sort: sort, role: .member), UserQuery(search: "a", sort: sort),
                       UserQuery(search: "ova", sort: sort, status: .active)] {
            var whole = filter
            whole.perPage = 200
            let everyone = try await store.list(whole)
            #expect(everyone.total == everyone.items.count)
            var joined: [User] = []
            var page = 1
            while true {
                var query = filter
                query.page = page
                query.perPage = 7
                let answer = try await store.list(query)
                #expect(answer.total == everyone.total)
                if answer.items.isEmpty { break }
                joined += answer.items
                page += 1
            }
            #expect(joined == everyone.items, "\(filter)")
            #expect(page == (everyone.total + 6) / 7 + 1)
        }
        try store.pool.close()
    }
}
