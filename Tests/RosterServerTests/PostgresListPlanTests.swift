import Foundation
import PostgresNIO
import RosterKit
@testable import RosterServer
import Testing

/// PostgreSQL's list plan (`PostgresListQuery`): short searches by `strpos` with totals from
/// `users_short_count`, pages past the middle read from the end, unfiltered pages skipped in
/// the index. Every page and total must be what the plain query gives: every match by
/// `strpos`, in the sort's order, sliced.
@Suite("PostgreSQL lists: pages and totals equal the plain query's")
struct PostgresListPlanTests {
    private static let shortPatterns = ["a", "e", "ma", "an", "a.", "@e", "é", "ü", "ov", "김", "zz", "q", "\"", "'c", "\\"]

    private func withStore(_ body: (PostgresStore) async throws -> Void) async throws {
        let (url, name) = try await TestPostgres.shared.createDatabase()
        let database = try await PostgresDatabase.open(url: url, logger: quietLogger, workDeadline: PostgresDatabase.notUnderTest)
        let result: Result<Void, any Error>
        do {
            try await body(PostgresStore(database: database))
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await database.close()
        try? await TestPostgres.shared.dropDatabase(named: name)
        try result.get()
    }

    private static func list(_ query: UserListQuery, on store: PostgresStore) async throws -> Page<User> {
        let envelope = try await store.listEnvelope(query)
        return try #require(try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: Data(envelope)).data)
    }

    /// Every user the query matches, in its order, by the plainest SQL.
    private static func plain(_ query: UserListQuery, on store: PostgresStore) async throws -> [User] {
        let search = query.base.search.map(SortKey.of) ?? ""
        var plainQuery: PostgresQuery = """
            SELECT json FROM users
            WHERE (\(search) = '' OR strpos(name_key, \(search)) > 0 OR strpos(email_key, \(search)) > 0)
              AND (\(query.base.role?.rawValue)::text IS NULL OR role = \(query.base.role?.rawValue))
              AND (\(query.base.status?.rawValue)::text IS NULL OR status = \(query.base.status?.rawValue))
              AND (\(query.group)::text IS NULL OR seq IN (SELECT user_seq FROM memberships
                   JOIN groups ON groups.seq = group_seq WHERE groups.id = \(query.group)))
            """
        plainQuery.sql += " ORDER BY " + ListPlan.orderBy(query.base.sort)
        let decoder = WireFormat.makeDecoder()
        var users: [User] = []
        for try await json in try await store.database.client.query(plainQuery, logger: quietLogger).decode(String.self) {
            users.append(try decoder.decode(User.self, from: Data(json.utf8)))
        }
        return users
    }

    /// Pages near the start, around the middle and at the end (and one past it) of each query.
    private static func expectPagesMatchPlain(
        _ queries: [UserListQuery], on store: PostgresStore, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for query in queries {
            let everyone = try await plain(query, on: store)
            for perPage in [7, 50] {
                let pages = max(1, (everyone.count + perPage - 1) / perPage)
                for page in Set([1, 2, pages / 2, pages / 2 + 1, pages / 2 + 2, pages - 1, pages, pages + 1]) where page >= 1 {
                    var asked = query
                    asked.base.page = page
                    asked.base.perPage = perPage
                    let answer = try await list(asked, on: store)
                    let start = min(everyone.count, (page - 1) * perPage)
                    let expected = Array(everyone[start..<min(everyone.count, start + perPage)])
                    #expect(answer.total == everyone.count, "\(asked)", sourceLocation: sourceLocation)
                    #expect(answer.items == expected, "\(asked)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    private static func shortSearches(group: String? = nil) -> [UserListQuery] {
        let filters: [(role: Role?, status: Status?)] = [(nil, nil), (.admin, nil), (nil, .suspended), (.member, .active)]
        return shortPatterns.flatMap { pattern in
            filters.map { UserListQuery(search: pattern, role: $0.role, status: $0.status, group: group) }
        }
    }

    /// Compares the short searches' totals (alone and filtered) with a count by `strpos`.
    private static func expectShortTotalsMatchPlain(on store: PostgresStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for query in shortSearches() {
            let total = try await list(query, on: store).total
            #expect(total == (try await plain(query, on: store)).count, "\(query)", sourceLocation: sourceLocation)
        }
    }

    @Test("every sort, with and without filters, searches of every length and a group: pages at the start, middle and end")
    func pagesMatchPlain() async throws {
        try await withStore { store in
            try await store.bulkInsert(DemoData.users(count: 2000))
            let now = Date()
            let group = try await store.createGroup(GroupDraft(name: "Ops"), at: now)
            let members = try await Self.list(UserListQuery(perPage: 100, search: "an"), on: store).items
            _ = try await store.changeMembers(of: group.id, MembershipChange(add: members.map(\.id), remove: []), at: now)
            for sort in UserSort.sorted {
                try await Self.expectPagesMatchPlain([
                    UserListQuery(sort: sort), UserListQuery(sort: sort, role: .member), UserListQuery(sort: sort, status: .invited),
                    UserListQuery(search: "a", sort: sort), UserListQuery(search: "an", sort: sort, status: .active),
                    UserListQuery(search: "ova", sort: sort), UserListQuery(search: "zq", sort: sort),
                    UserListQuery(sort: sort, group: group.id), UserListQuery(search: "e", sort: sort, group: group.id),
                ], on: store)
            }
        }
    }

    @Test("the seed's counts equal the triggers' SQL: the same grams of every user")
    func seedCountsEqualSQL() async throws {
        try await withStore { store in
            try await store.bulkInsert(DemoData.users(count: 1500))
            let differences = try await store.database.client.query("""
                SELECT count(*) FROM (
                    (SELECT gram, role, status, n FROM users_short_count WHERE n <> 0
                     EXCEPT SELECT gram COLLATE "C", role, status, count(*) FROM users, users_short_grams(name_key, email_key) AS gram
                            GROUP BY gram, role, status)
                    UNION ALL
                    (SELECT gram COLLATE "C", role, status, count(*) FROM users, users_short_grams(name_key, email_key) AS gram
                            GROUP BY gram, role, status
                     EXCEPT SELECT gram, role, status, n FROM users_short_count WHERE n <> 0)) AS differing
                """, logger: quietLogger)
            for try await count in differences.decode(Int64.self) { #expect(count == 0) }
            try await Self.expectShortTotalsMatchPlain(on: store)
        }
    }

    @Test("short-search totals follow creates, renames, role changes, memberships and deletes")
    func totalsFollowWrites() async throws {
        try await withStore { store in
            try await store.bulkInsert(DemoData.users(count: 600))
            let now = Date()
            let created = try await store.create(UserDraft(name: "Zzé Qüov \"Quote\"", email: "zz.q'c@example.com", role: .admin), at: now)
            let other = try await store.create(UserDraft(name: "김민준 \\", email: "minjun@example.com", status: .suspended), at: now)
            try await Self.expectShortTotalsMatchPlain(on: store)
            _ = try await store.update(id: created.id, with: UserDraft(name: "Plain", email: "plain@example.com", role: .member, status: .active), at: now)
            let someone = try await Self.list(UserListQuery(perPage: 3), on: store).items
            _ = try await store.update(id: someone[0].id, with: UserDraft(name: someone[0].name, email: someone[0].email, role: .admin), at: now)
            let group = try await store.createGroup(GroupDraft(name: "Ops"), at: now)
            _ = try await store.setMembership(of: someone[2].id, in: group.id, isMember: true, at: now)
            try await Self.expectShortTotalsMatchPlain(on: store)
            _ = try await store.delete(id: other.id, at: Date())
            _ = try await store.delete(id: someone[1].id, at: Date())
            try await Self.expectShortTotalsMatchPlain(on: store)
            try await Self.expectPagesMatchPlain([UserListQuery(search: "a"), UserListQuery(search: "zz")], on: store)
        }
    }

    /// The scans of the page statement's plan, run: node type, index and rows each produced.
    private static func scans(_ query: UserListQuery, on store: PostgresStore) async throws -> [(type: String, index: String?, rows: Int)] {
        let statements = PostgresListQuery(query)
        var total = 0
        for try await count in try await store.database.client.query(statements.count, logger: quietLogger).decode(Int64.self) {
            total = Int(count)
        }
        var explain = statements.page(total: total)
        explain.sql = "EXPLAIN (ANALYZE, FORMAT JSON) " + explain.sql
        var text = ""
        for try await row in try await store.database.client.query(explain, logger: quietLogger).decode(String.self) { text += row }
        let plans = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        var found: [(type: String, index: String?, rows: Int)] = []
        func walk(_ node: [String: Any]) {
            let type = node["Node Type"] as? String ?? ""
            if type.contains("Scan") {
                found.append((type, node["Index Name"] as? String, (node["Actual Rows"] as? Int ?? 0) + (node["Rows Removed by Filter"] as? Int ?? 0)))
            }
            for child in node["Plans"] as? [[String: Any]] ?? [] { walk(child) }
        }
        for plan in plans { walk(plan["Plan"] as? [String: Any] ?? [:]) }
        return found
    }

    @Test("a deep page skips at most half the list, and a short search walks the sort's index, in the index alone")
    func plansDoNotWalkEveryRow() async throws {
        try await withStore { store in
            try await store.bulkInsert(DemoData.users(count: 2000))
            // Only the walk is checked: how the 50 rows are then fetched depends on the table's
            // size (a hash join over 2,000 rows; by id, row by row, over a million).
            for sort in UserSort.sorted {
                // Page 30 of 40 skips 1,450 rows from the start, 500 from the end.
                let deep = try await Self.scans(UserListQuery(page: 30, perPage: 50, sort: sort), on: store)
                let skipping = try #require(deep.first { $0.type == "Index Only Scan" }, "\(sort): \(deep)")
                #expect(skipping.rows <= 550, "\(sort): \(deep)")
                // `a` is in every email: the sort's index fills the page after a few rows, tested
                // in the index alone, with the role too.
                let search = try await Self.scans(UserListQuery(perPage: 50, search: "a", sort: sort, role: .member), on: store)
                let walk = try #require(search.first { $0.type == "Index Only Scan" }, "\(sort): \(search)")
                #expect(walk.rows < 500, "\(sort): \(search)")
            }
        }
    }

    @Test("a list statement past the budget is cancelled and answered 503 query_too_slow; the next one answers")
    func budget() async throws {
        try await withServer(backend: .postgres, seedCount: 1500, listCacheEntries: 0, queryBudget: .milliseconds(200)) { server in
            let database = try await PostgresDatabase.open(url: server.database, logger: quietLogger, workDeadline: PostgresDatabase.notUnderTest)
            // A lock no read can pass: the list's statement waits on it until its timeout. Both
            // calls are long lists (a short search; a page skipping more than 1,000 rows).
            let refused = try await database.transaction { connection in
                try await connection.query("LOCK TABLE users IN ACCESS EXCLUSIVE MODE", logger: quietLogger)
                let started = ContinuousClock.now
                let search = try await server.raw(.get, "/api/v1/users?q=an", headers: TestServer.authorization)
                let deep = try await server.raw(.get, "/api/v1/users?page=25&per_page=50", headers: TestServer.authorization)
                return (search, deep, ContinuousClock.now - started)
            }
            await database.close()
            for answer in [refused.0, refused.1] {
                #expect(answer.status == 503)
                #expect(answer.errorEnvelope?.code == "query_too_slow")
            }
            // Without the budget both would wait on the lock for as long as it is held (forever,
            // here); with it each takes 200 ms, which the whole suite on two cores stretched past 5 s.
            #expect(refused.2 < .seconds(20))
            let search = try await server.raw(.get, "/api/v1/users?q=an", headers: TestServer.authorization)
            #expect(search.status == 200)
            #expect(try await server.repository().listUsers(UserQuery(page: 25, perPage: 50)).items.count == 50)
        }
    }
}
