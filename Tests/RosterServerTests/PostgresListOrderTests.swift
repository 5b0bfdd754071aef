import Foundation
import PostgresNIO
import RosterKit
@testable import RosterServer
import Testing
import RosterKitTestSupport

/// PostgreSQL's deep pages and searches placed by the sort's in-memory `ListOrder`
/// (`PostgresStore.envelopeByListOrder`): each answer byte for byte the one SQL alone
/// gives, also right after another process wrote.
@Suite("PostgreSQL lists placed by the sort's order: the same answers as SQL, before and after writes")
struct PostgresListOrderTests {
    /// Two stores on one new database, as two processes: one keeps list orders, one reads
    /// every list with SQL alone (and neither keeps page marks).
    private func withStores(_ body: (_ ordered: PostgresStore, _ plain: PostgresStore) async throws -> Void) async throws {
        try await withTwoPools { first, second in
            let ordered = PostgresStore(database: first, keepsPageMarks: false)
            let plain = PostgresStore(database: second, keepsPageMarks: false, keepsListOrders: false)
            try await ordered.bulkInsert(DemoData.users(count: 1500))
            try await ordered.insertAll(tiedUsers())
            try await body(ordered, plain)
        }
    }

    /// Deep pages up to past the end, and pages of short searches from the start and the end,
    /// each asked until the order answers it (the first ask notes the sort, the second starts
    /// the walk in the background), then once more.
    private static func expectSameAnswers(_ ordered: PostgresStore, _ plain: PostgresStore, sort: UserSort) async throws {
        let generation = try await ordered.generation()
        var queries = [28, 30, 35, 41, 42, 43].map { UserListQuery(page: $0, perPage: 37, sort: sort) }
        for search in ["a", "Iv", "q", "@", "zq", "É", "iva", "Ivanova", "EXAMPLE.ORG", "zzzq", "a.b", "ová"] {
            queries += [1, 2, 9, 40, 150, 220].map { UserListQuery(page: $0, perPage: 7, search: search, sort: sort) }
        }
        // Page 30 skips 1,073 rows: past the quick pages, so it asks for the order.
        _ = try await ordered.listEnvelope(queries[1])
        _ = try await ordered.listEnvelope(queries[1])
        let kept = await eventually(within: .seconds(60), poll: .milliseconds(20)) { ordered.listOrders?.keeps(sort, at: generation) == true }
        #expect(kept, "no order was kept for \(sort) at \(generation)")
        for query in queries {
            let expected = try await plain.listEnvelope(query)
            #expect(try await ordered.listEnvelope(query) == expected, "\(query)")
        }
    }

    @Test("every sort: deep pages and searches of every length equal SQL's", arguments: UserSort.sorted)
    func sameAnswers(sort: UserSort) async throws {
        try await withStores { ordered, plain in
            try await Self.expectSameAnswers(ordered, plain, sort: sort)
        }
    }

    @Test("a create, update and delete through another process are in the next answers")
    func writesElsewhere() async throws {
        try await withStores { ordered, plain in
            try await Self.expectSameAnswers(ordered, plain, sort: .name)
            let created = try await plain.create(
                UserDraft(name: "Aaaa Ivanova", email: "aaaa@example.com"), at: Date(timeIntervalSince1970: 1_900_000_000))
            try await Self.expectSameAnswers(ordered, plain, sort: .name)
            _ = try await plain.update(
                id: created.id, with: UserDraft(name: "Zzzz Last", email: "zzzz@example.com"), at: Date(timeIntervalSince1970: 1_900_000_001))
            try await Self.expectSameAnswers(ordered, plain, sort: .name)
            _ = try await plain.delete(id: created.id, at: Date())
            try await Self.expectSameAnswers(ordered, plain, sort: .name)
        }
    }
}
