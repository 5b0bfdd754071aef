import Foundation
import RosterKit
@testable import RosterServer
import Testing
import RosterKitTestSupport

/// Deep pages and trigram searches of the unfiltered list are placed by the sort's
/// `ListOrder` (`SQLiteStore.envelopeByListOrder`); each answer must be byte for byte the one
/// SQL alone gives, also right after another connection wrote.
@Suite("Lists placed by the sort's order: the same answers as SQL, before and after writes")
struct ListOrderTests {
    /// A store that keeps list orders and one that does not, on one new file with demo users
    /// and a run of users with the same name and creation time (ties, broken by id).
    private static func stores() async throws -> (ordered: SQLiteStore, plain: SQLiteStore, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-order-\(UUID().uuidString)")
        let path = directory.appendingPathComponent("users.sqlite").path
        // Budgets no busy machine reaches: these tests judge the answers, not the time.
        let ordered = try SQLiteStore(path: path, queryBudget: .seconds(30))
        try await ordered.bulkInsert(DemoData.users(count: 1500))
        try await ordered.insertAll(tiedUsers())
        let plain = try SQLiteStore(path: path, queryBudget: .seconds(30), keepsListOrders: false)
        return (ordered, plain, directory)
    }

    /// Deep pages (more than `ListPlan.quickOffsetLimit` rows in) up to past the end, and
    /// searches' pages, each asked three times (the first ask only notes the sort, the second
    /// starts a walk of the index in the background, later ones use the order once it is done).
    private static func expectSameAnswers(_ ordered: SQLiteStore, _ plain: SQLiteStore, sort: UserSort) async throws {
        let total = try await plain.list(UserQuery(sort: sort)).total
        let pages = (total + 36) / 37
        var queries = (28...pages + 1).map { UserListQuery(page: $0, perPage: 37, sort: sort) }
        // Trigram searches, and searches of one or two characters (placed by the order's keys
        // in the name and creation-time sorts), on pages from the start and from the end.
        for search in ["iva", "Ivanova", "EXAMPLE.ORG", "zzzq", "a", "Iv", "q", "@", "zq", "É"] {
            queries += [1, 2, 9, 40, 150, 220].map { UserListQuery(page: $0, perPage: 7, search: search, sort: sort) }
        }
        for query in queries {
            let expected = try await plain.listEnvelope(query)
            for _ in 0..<3 {
                #expect(try await ordered.listEnvelope(query) == expected, "\(query)")
            }
        }
    }

    @Test("every sort: deep pages and searches equal SQL's, and the order is used", arguments: UserSort.sorted)
    func sameAnswers(sort: UserSort) async throws {
        let (ordered, plain, directory) = try await Self.stores()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.expectSameAnswers(ordered, plain, sort: sort)
        let generation = try await ordered.generation()
        guard let order = try await Self.keptOrder(ordered, sort: sort, at: generation) else {
            Issue.record("no order was kept for \(sort)")
            return
        }
        #expect(order.seqs.count == 1570)
        try ordered.pool.close()
        try plain.pool.close()
    }

    /// The order kept for `sort`, once the background walk has stored it (nil after 60 s).
    private static func keptOrder(_ store: SQLiteStore, sort: UserSort, at generation: UInt64) async throws -> ListOrder? {
        var kept: ListOrder?
        // While the walk runs, asking changes nothing: the answer is "read as before".
        _ = await eventually(within: .seconds(60), poll: .milliseconds(20)) {
            if case .use(let order) = store.listOrders?.advice(for: sort, at: generation) { kept = order }
            return kept != nil
        }
        return kept
    }

    @Test("a create, update and delete through another store's connection are in the next answers",
          arguments: [UserSort.name, .createdAtDescending])
    func writesElsewhere(sort: UserSort) async throws {
        let (ordered, plain, directory) = try await Self.stores()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.expectSameAnswers(ordered, plain, sort: sort)

        // First by name and by newest creation: every deep page shifts by one, and it is a hit of `iva`.
        let created = try await plain.create(
            UserDraft(name: "Aaaa Ivanova", email: "aaaa@example.com"), at: Date(timeIntervalSince1970: 1_900_000_000))
        try await Self.expectSameAnswers(ordered, plain, sort: sort)
        _ = try await plain.update(
            id: created.id, with: UserDraft(name: "Zzzz Last", email: "zzzz@example.com"), at: Date(timeIntervalSince1970: 1_900_000_001))
        try await Self.expectSameAnswers(ordered, plain, sort: sort)
        let someone = try await plain.list(UserQuery(page: 40, perPage: 20, sort: sort)).items[3]
        _ = try await plain.delete(id: someone.id, at: Date())
        _ = try await plain.delete(id: created.id, at: Date())
        try await Self.expectSameAnswers(ordered, plain, sort: sort)
        try ordered.pool.close()
        try plain.pool.close()
    }
}

@Suite("The list order cache keeps no order of an older generation")
struct ListOrderCacheTests {
    @Test("an order goes once a newer generation is seen, by any sort")
    func olderOrdersGo() {
        let cache = ListOrderCache()
        let order = ListOrder(seqs: [3, 1, 2])
        cache.store(order, for: .name, at: 7)
        cache.store(order, for: .email, at: 7)
        #expect(cache.keptSorts == [.name, .email])
        // A list by creation time at generation 8: both orders of generation 7 are stale.
        guard case .readWithout = cache.advice(for: .createdAt, at: 8) else {
            Issue.record("the first ask at a generation should read as before")
            return
        }
        #expect(cache.keptSorts.isEmpty)
        cache.store(order, for: .createdAt, at: 8)
        cache.store(order, for: .name, at: 9)
        #expect(cache.keptSorts == [.name])
    }
}
