import Foundation
import PostgresNIO
import RosterKit
@testable import RosterServer
import Testing

/// PostgreSQL's deep pages seek from kept page boundaries (`PostgresPageMarks`), and trigram
/// searches read their hits from the narrow `user_keys` table. Every answer must be byte for
/// byte the one the plain plan gives (no marks), also right after another process wrote.
@Suite("PostgreSQL page marks and the narrow search table: the same answers as the plain plan")
struct PostgresPageMarksTests {
    /// Two stores on one new database, as two processes: one keeps page marks, one does not.
    /// Demo users, and a run with one name and creation time (ties broken by id).
    private func withStores(count: Int = 1500, _ body: (_ marked: PostgresStore, _ plain: PostgresStore) async throws -> Void) async throws {
        try await withTwoPools { first, second in
            // Neither keeps list orders, which would answer deep pages before the marks could
            // (`PostgresListOrderTests` checks those).
            let marked = PostgresStore(database: first, keepsListOrders: false)
            let plain = PostgresStore(database: second, keepsPageMarks: false, keepsListOrders: false)
            try await marked.bulkInsert(DemoData.users(count: count))
            try await marked.insertAll(tiedUsers())
            try await body(marked, plain)
        }
    }

    private static func list(_ query: UserQuery, on store: PostgresStore) async throws -> Page<User> {
        let envelope = try await store.listEnvelope(UserListQuery(query))
        return try #require(try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: Data(envelope)).data)
    }

    /// Deep pages (past `ListPlan.quickOffsetLimit`; any page of a short search) in an order
    /// that jumps about, then pages on either side of each, and past the end: each twice (the
    /// second may seek from marks the first left), against the store without marks.
    private static func expectSameDeepPages(_ marked: PostgresStore, _ plain: PostgresStore, sort: UserSort,
                                            search: String? = nil, role: Role? = nil, status: Status? = nil,
                                            sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let perPage = 37
        let base = UserListQuery(perPage: perPage, search: search, sort: sort, role: role, status: status)
        let total = try await Self.list(base.base, on: plain).total
        let pages = (total + perPage - 1) / perPage
        var asked: [Int] = []
        for page in [pages / 2, 30, pages - 1, pages + 1, 1] {
            asked += [page, page - 1, page + 2]
        }
        for page in asked where page >= 1 {
            var query = base
            query.base.page = page
            guard !ListPlan.isQuick(query) else { continue }
            let expected = try await plain.listEnvelope(query)
            for _ in 0..<2 {
                #expect(try await marked.listEnvelope(query) == expected, "\(query)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("every sort: deep pages equal the plain plan's, and marks are kept and used", arguments: UserSort.sorted)
    func sameDeepPages(sort: UserSort) async throws {
        try await withStores { marked, plain in
            try await Self.expectSameDeepPages(marked, plain, sort: sort)
            let generation = try await marked.generation()
            let marks = marked.pageMarks?.marks(for: .init(sort: sort), at: generation) ?? [:]
            #expect(marks.count >= 10)
            // A page next to a marked one is read from its mark, skipping fewer rows than any end.
            if let (position, _) = marks.first(where: { $0.key > 1200 && $0.key < 1400 }) {
                let walk = PostgresPageMarks.walk(offset: position + 1, rows: 20, total: 1570, marks: marks)
                #expect(walk.mark != nil && walk.skip <= 1)
            }
        }
    }

    // Three sorts cover the seek's forms (text and integer keys, ascending, descending, unique);
    // every sort's seek is checked by `sameDeepPages`. Fewer cases keep the shared test cluster
    // free for the suites that race writes against it.
    @Test("short searches and filters: every page equals the plain plan's, marks kept per list",
          arguments: [UserSort.name, .emailDescending, .createdAtDescending])
    func sameFilteredPages(sort: UserSort) async throws {
        try await withStores { marked, plain in
            try await Self.expectSameDeepPages(marked, plain, sort: sort, search: "a")
            try await Self.expectSameDeepPages(marked, plain, sort: sort, search: "an", role: .member)
            try await Self.expectSameDeepPages(marked, plain, sort: sort, search: "zq")
            try await Self.expectSameDeepPages(marked, plain, sort: sort, status: .active)
            let generation = try await marked.generation()
            let pageMarks = try #require(marked.pageMarks)
            #expect(!pageMarks.marks(for: .init(sort: sort, search: "an", role: .member), at: generation).isEmpty)
            #expect(pageMarks.marks(for: .init(sort: sort, search: "an"), at: generation).isEmpty)
            // A write elsewhere: the same lists' pages follow it.
            let created = try await plain.create(UserDraft(name: "Aaan Aaa", email: "aaan@example.com", role: .member), at: Date())
            try await Self.expectSameDeepPages(marked, plain, sort: sort, search: "an", role: .member)
            _ = try await plain.delete(id: created.id, at: Date())
            try await Self.expectSameDeepPages(marked, plain, sort: sort, search: "a")
        }
    }

    @Test("creates, updates and deletes by another process are in the next deep page and search",
          arguments: [UserSort.name, .createdAtDescending, .emailDescending])
    func writesElsewhere(sort: UserSort) async throws {
        try await withStores { marked, plain in
            try await Self.expectSameDeepPages(marked, plain, sort: sort)
            // First by name and by newest creation: every deep page shifts by one, and it is a hit of `iva`.
            let created = try await plain.create(
                UserDraft(name: "Aaaa Ivanova", email: "aaaa@example.com"), at: Date(timeIntervalSince1970: 1_900_000_000))
            try await Self.expectSameDeepPages(marked, plain, sort: sort)
            try await Self.expectSearchesMatchPlain(["iva", "aaaa@"], on: marked, sort: sort)
            _ = try await plain.update(
                id: created.id, with: UserDraft(name: "Zzzz Last", email: "zzzz@example.com", role: .admin, status: .suspended),
                at: Date(timeIntervalSince1970: 1_900_000_001))
            try await Self.expectSameDeepPages(marked, plain, sort: sort)
            try await Self.expectSearchesMatchPlain(["iva", "aaaa@", "zzzz", "last"], on: marked, sort: sort)
            let someone = try await Self.list(UserQuery(page: 40, perPage: 20, sort: sort), on: plain).items[3]
            _ = try await plain.delete(id: someone.id, at: Date())
            _ = try await plain.delete(id: created.id, at: Date())
            try await Self.expectSameDeepPages(marked, plain, sort: sort)
            try await Self.expectSearchesMatchPlain(["iva", "zzzz", String(someone.email.prefix(6))], on: marked, sort: sort)
            try await Self.expectKeysMatchUsers(on: marked)
        }
    }

    /// Every user the search (three characters and more) matches, by the plainest SQL on `users`.
    private static func plainSearch(_ query: UserListQuery, on store: PostgresStore) async throws -> [User] {
        let search = query.base.search.map(SortKey.of) ?? ""
        var plainQuery: PostgresQuery = """
            SELECT json FROM users
            WHERE (strpos(name_key, \(search)) > 0 OR strpos(email_key, \(search)) > 0)
              AND (\(query.base.role?.rawValue)::text IS NULL OR role = \(query.base.role?.rawValue))
              AND (\(query.base.status?.rawValue)::text IS NULL OR status = \(query.base.status?.rawValue))
            """
        plainQuery.sql += " ORDER BY " + ListPlan.orderBy(query.base.sort)
        let decoder = WireFormat.makeDecoder()
        var users: [User] = []
        for try await json in try await store.database.client.query(plainQuery, logger: quietLogger).decode(String.self) {
            users.append(try decoder.decode(User.self, from: Data(json.utf8)))
        }
        return users
    }

    /// Searches alone and filtered, their first, middle and last pages and one past the end.
    private static func expectSearchesMatchPlain(_ searches: [String], on store: PostgresStore, sort: UserSort,
                                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let filters: [(role: Role?, status: Status?)] = [(nil, nil), (.admin, nil), (nil, .suspended), (.member, .active)]
        for search in searches {
            for filter in filters {
                let query = UserListQuery(perPage: 7, search: search, sort: sort, role: filter.role, status: filter.status)
                let everyone = try await plainSearch(query, on: store)
                let pages = max(1, (everyone.count + 6) / 7)
                for page in Set([1, 2, pages / 2, pages, pages + 1]) where page >= 1 {
                    var asked = query
                    asked.base.page = page
                    let answer = try await list(asked.base, on: store)
                    let start = min(everyone.count, (page - 1) * 7)
                    #expect(answer.total == everyone.count, "\(asked)", sourceLocation: sourceLocation)
                    #expect(answer.items == Array(everyone[start..<min(everyone.count, start + 7)]), "\(asked)",
                            sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// `user_keys` holds exactly the users' keys and filtered columns.
    private static func expectKeysMatchUsers(on store: PostgresStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let differences = try await store.database.client.query("""
            SELECT count(*) FROM (
                (SELECT seq, id, name_key, email_key, created_at, role, status FROM users
                 EXCEPT SELECT seq, id, name_key, email_key, created_at, role, status FROM user_keys)
                UNION ALL
                (SELECT seq, id, name_key, email_key, created_at, role, status FROM user_keys
                 EXCEPT SELECT seq, id, name_key, email_key, created_at, role, status FROM users)) AS differing
            """, logger: quietLogger)
        for try await count in differences.decode(Int64.self) { #expect(count == 0, sourceLocation: sourceLocation) }
    }

    @Test("trigram searches read from user_keys equal a strpos scan of users, seeded and after writes")
    func searchesMatchPlain() async throws {
        try await withStores(count: 2500) { store, _ in
            try await Self.expectKeysMatchUsers(on: store)
            for sort in [UserSort.name, .emailDescending, .createdAtDescending] {
                try await Self.expectSearchesMatchPlain(["ova", "Ivanova", "zzq", "a_b", "10%", "ли"], on: store, sort: sort)
            }
            let now = Date()
            let created = try await store.create(UserDraft(name: "Under_Score 100%", email: "a_b@ex.org", role: .admin), at: now)
            _ = try await store.update(id: created.id, with: UserDraft(name: "Under_Score 100%", email: "a_b@ex.org", role: .viewer), at: now)
            let group = try await store.createGroup(GroupDraft(name: "Ops"), at: now)
            // A membership rewrites the stored JSON only; the keys stay as they were.
            _ = try await store.setMembership(of: created.id, in: group.id, isMember: true, at: now)
            try await Self.expectKeysMatchUsers(on: store)
            try await Self.expectSearchesMatchPlain(["a_b", "100%", "score"], on: store, sort: .name)
            _ = try await store.delete(id: created.id, at: Date())
            try await Self.expectKeysMatchUsers(on: store)
            try await Self.expectSearchesMatchPlain(["a_b", "100%"], on: store, sort: .createdAt)
        }
    }

    @Test("migration 7 on a database that already has users copies every one into user_keys")
    func migrationFillsKeys() async throws {
        try await withStores(count: 800) { store, _ in
            // Back to the schema before migration 7, users kept, as a database made by an older release.
            for statement in [
                "DROP FUNCTION user_keys_add, user_keys_remove, user_keys_change CASCADE", "DROP TABLE user_keys",
                "DELETE FROM roster_schema_versions WHERE version = 7",
            ] {
                try await store.database.client.query(PostgresQuery(unsafeSQL: statement), logger: quietLogger)
            }
            try await PostgresSchema.migrate(store.database)
            try await Self.expectKeysMatchUsers(on: store)
            try await Self.expectSearchesMatchPlain(["ova", "example.com"], on: store, sort: .name)
            // And its triggers keep them from then on.
            _ = try await store.create(UserDraft(name: "After Upgrade", email: "after@example.com"), at: Date())
            try await Self.expectKeysMatchUsers(on: store)
        }
    }

    @Test("walks: from the nearer end without marks, else from the nearest mark on either side")
    func walkChoice() {
        let mark = PostgresPageMarks.Mark(primary: .text("m"), id: "x")
        #expect(PostgresPageMarks.walk(offset: 100, rows: 50, total: 1000, marks: [:]) == .init(mark: nil, backward: false, skip: 100))
        #expect(PostgresPageMarks.walk(offset: 900, rows: 50, total: 1000, marks: [:]) == .init(mark: nil, backward: true, skip: 50))
        #expect(PostgresPageMarks.walk(offset: 500, rows: 50, total: 1000, marks: [480: mark]) == .init(mark: mark, backward: false, skip: 20))
        #expect(PostgresPageMarks.walk(offset: 500, rows: 50, total: 1000, marks: [560: mark]) == .init(mark: mark, backward: true, skip: 11))
        // The page's own first and last rows: no row skipped.
        #expect(PostgresPageMarks.walk(offset: 500, rows: 50, total: 1000, marks: [500: mark]) == .init(mark: mark, backward: false, skip: 0))
        #expect(PostgresPageMarks.walk(offset: 500, rows: 50, total: 1000, marks: [549: mark]) == .init(mark: mark, backward: true, skip: 0))
        // A mark inside the page, not at its edges, is of no use.
        #expect(PostgresPageMarks.walk(offset: 500, rows: 50, total: 1000, marks: [520: mark]).mark == nil)
    }

    @Test("marks are kept for their generation only, a newer one replacing them")
    func marksByGeneration() {
        let marks = PostgresPageMarks()
        let mark = PostgresPageMarks.Mark(primary: .integer(5), id: "a")
        marks.keep([10: mark], for: .init(sort: .name), at: 3)
        #expect(marks.marks(for: .init(sort: .name), at: 3) == [10: mark])
        #expect(marks.marks(for: .init(sort: .name), at: 4).isEmpty)
        #expect(marks.marks(for: .init(sort: .email), at: 3).isEmpty)
        marks.keep([20: mark], for: .init(sort: .name), at: 4)
        marks.keep([30: mark], for: .init(sort: .name), at: 3) // an older reader's: dropped
        #expect(marks.marks(for: .init(sort: .name), at: 4) == [20: mark])
        #expect(marks.marks(for: .init(sort: .name), at: 3).isEmpty)
        for position in 0..<(PostgresPageMarks.capacity + 1) { marks.keep([position: mark], for: .init(sort: .email), at: 1) }
        #expect(marks.marks(for: .init(sort: .email), at: 1).count <= PostgresPageMarks.capacity)
    }
}
