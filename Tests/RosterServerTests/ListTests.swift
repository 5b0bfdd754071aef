import Foundation
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing

/// Users whose order and matching stress the rules: case, accents (composed and decomposed),
/// scripts, equal names (ties by id), equal creation times.
private func trickyUsers() -> [User] {
    let names = [
        "émile", "Emile", "Émile", "e\u{301}mile", "Zoë", "zoe", "ZOE", "Åsa", "Anna", "anna", "АННА Иванова", "анна иванова",
        "Ольга", "ΣΟΦΊΑ", "σοφία", "王伟", "佐藤 花子", "김민준", "محمد", "דוד", "अनन्या", "Ödön", "o'Brien", "O'Brien",
        "İpek", "ß-Straße", "STRASSE", "100% sure", "under_score", "quote\"d", "Ana", "ana", "Ana",
    ]
    return names.enumerated().map { index, name in
        // Three creation times only, so the created_at orders have many ties.
        let created = Date(timeIntervalSince1970: 1_700_000_000 + Double(index % 3) * 60)
        return User(
            id: String(format: "id%04d", (index * 7919) % 10_000), name: name,
            email: "user\(index)@\(["example.com", "Example.org", "MAIL.example.net"][index % 3])",
            role: [Role.admin, .member, .viewer][index % 3], status: [Status.active, .invited, .suspended][(index / 3) % 3],
            createdAt: created, updatedAt: created)
    }
}

private func insertTricky(_ store: any DirectoryStore) async throws {
    try await store.insertAll(trickyUsers())
}

@Suite("List: pagination, sort, search")
struct ListTests {
    @Test("pages cut the list in order; a page past the end is empty with the right total", arguments: Backend.allCases)
    func pagination(backend: Backend) async throws {
        try await withServer(backend: backend, seedCount: 25) { server in
            let users = server.repository()
            var seen: [User] = []
            for page in 1...3 {
                let result = try await users.listUsers(UserQuery(page: page, perPage: 10))
                #expect(result.page == page)
                #expect(result.perPage == 10)
                #expect(result.total == 25)
                #expect(result.items.count == (page < 3 ? 10 : 5))
                seen += result.items
            }
            #expect(Set(seen.map(\.id)).count == 25)
            let all = try await users.listUsers(UserQuery(perPage: 200))
            #expect(all.items == seen)

            for page in [4, 5, 10_000_000] {
                let past = try await users.listUsers(UserQuery(page: page, perPage: 10))
                #expect(past.items.isEmpty)
                #expect(past.total == 25)
                #expect(past.page == page)
            }
            let single = try await users.listUsers(UserQuery(page: 25, perPage: 1))
            #expect(single.items == [seen[24]])
            let defaults = try await server.raw(.get, "/api/v1/users", headers: TestServer.authorization)
            let page = try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: defaults.response.body).data
            #expect(page?.page == 1)
            #expect(page?.perPage == 50)
        }
    }

    @Test("every sort orders exactly like the client's in-memory repository, ties by id", arguments: Backend.allCases, UserSort.allCases)
    func sortMatchesClient(backend: Backend, sort: UserSort) async throws {
        try await withServer(backend: backend, prepare: insertTricky) { server in
            let reference = InMemoryDirectory(users: trickyUsers())
            for perPage in [200, 7] {
                var served: [User] = []
                var page = 1
                while true {
                    let result = try await server.repository().listUsers(UserQuery(page: page, perPage: perPage, sort: sort))
                    served += result.items
                    if result.items.count < perPage { break }
                    page += 1
                }
                let expected = try await reference.listUsers(UserQuery(perPage: 200, sort: sort)).items
                #expect(served.map(\.id) == expected.map(\.id), "sort \(sort.rawValue), per_page \(perPage)")
            }
        }
    }

    @Test("role and status filter, alone, together and with a search; totals match", arguments: Backend.allCases)
    func filters(backend: Backend) async throws {
        try await withServer(backend: backend, prepare: insertTricky) { server in
            let reference = InMemoryDirectory(users: trickyUsers())
            for role in [nil] + Role.known.map(Optional.some) {
                for status in [nil] + Status.known.map(Optional.some) {
                    for search in [nil, "an", "anna", "example"] {
                        let query = UserQuery(perPage: 200, search: search, role: role, status: status)
                        let served = try await server.repository().listUsers(query)
                        let expected = try await reference.listUsers(query)
                        #expect(served.items.map(\.id) == expected.items.map(\.id), "\(query)")
                        #expect(served.total == expected.total, "\(query)")
                    }
                }
            }
        }
    }

    /// Each search with the names it must find, exactly.
    static let searches: [(query: String, names: [String])] = [
        ("анна", ["АННА Иванова", "анна иванова"]),
        ("АННА", ["АННА Иванова", "анна иванова"]),
        ("ИВАНОВ", ["АННА Иванова", "анна иванова"]),
        ("σοφία", ["ΣΟΦΊΑ", "σοφία"]),
        ("ΣΟΦ", ["ΣΟΦΊΑ", "σοφία"]),
        ("zoë", ["Zoë"]),
        ("ÉMILE", ["émile", "Émile", "e\u{301}mile"]),
        ("佐藤", ["佐藤 花子"]),
        ("王", ["王伟"]),
        ("o'b", ["o'Brien", "O'Brien"]),
        ("ë", ["Zoë"]),
        ("100%", ["100% sure"]),
        ("_", ["under_score"]),
        ("e\"d", ["quote\"d"]),
        ("\"", ["quote\"d"]),
        ("nobody-has-this", []),
        ("\u{0}", []),
        ("anna\u{0}", []),
        ("a\u{7}", []),
    ]

    @Test("search is a case-insensitive substring of name or email, in any script", arguments: Backend.allCases, searches)
    func search(backend: Backend, search: (query: String, names: [String])) async throws {
        try await withServer(backend: backend, prepare: insertTricky) { server in
            let found = try await server.repository().listUsers(UserQuery(perPage: 200, search: search.query))
            #expect(found.items.map(\.name).sorted() == search.names.sorted())
            #expect(found.total == search.names.count)
        }
    }

    @Test("search matches emails case-insensitively, short patterns included", arguments: Backend.allCases)
    func searchEmails(backend: Backend) async throws {
        try await withServer(backend: backend, prepare: insertTricky) { server in
            let users = server.repository()
            let byDomain = try await users.listUsers(UserQuery(perPage: 200, search: "EXAMPLE.ORG"))
            #expect(byDomain.total == trickyUsers().filter { $0.email.lowercased().hasSuffix("example.org") }.count)
            #expect(byDomain.total > 0)
            let short = try await users.listUsers(UserQuery(perPage: 200, search: "R1"))
            #expect(Set(short.items.map(\.email)) == Set(trickyUsers().map(\.email).filter { $0.contains("r1") }))
            // Name and email are separate: a match never spans from one into the other.
            let spanning = try await users.listUsers(UserQuery(perPage: 200, search: "emileuser"))
            #expect(spanning.total == 0)
        }
    }

    @Test("search finds users in a large directory through the trigram index and the short fallback", arguments: Backend.allCases)
    func searchLargeDirectory(backend: Backend) async throws {
        try await withServer(backend: backend, seedCount: 3000) { server in
            let all = try await collectAll(server)
            let reference = InMemoryDirectory(users: all)
            for search in ["анна", "Анна", "ΜΑΡΊΑ", "佐藤", "김", "Müller", "SMITH", "example.net", "a", "zh", "ng.", "@corp"] {
                let query = UserQuery(perPage: 50, search: search, sort: .email)
                let served = try await server.repository().listUsers(query)
                let expected = try await reference.listUsers(query)
                #expect(served.total == expected.total, "q=\(search)")
                #expect(served.items.map(\.id) == expected.items.map(\.id), "q=\(search)")
                #expect(served.total > 0, "q=\(search)")
            }
        }
    }

    private func collectAll(_ server: TestServer) async throws -> [User] {
        var all: [User] = []
        var page = 1
        while true {
            let result = try await server.repository().listUsers(UserQuery(page: page, perPage: 200))
            all += result.items
            if result.items.count < 200 { return all }
            page += 1
        }
    }
}
