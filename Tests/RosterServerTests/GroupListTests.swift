import Foundation
import RosterKit
import Testing

@Suite("Group lists and member lists: sort, paging, search, filters")
struct GroupListTests {
    /// Every page of `path` (which has no query yet) at `perPage`, joined.
    private func allPages<T: Decodable & Sendable>(_ server: TestServer, _ path: String, _ query: String, perPage: Int, as type: T.Type) async throws -> (items: [T], total: Int) {
        var items: [T] = []
        var page = 1
        while true {
            let answer = try await server.call(.get, "\(path)?\(query)&per_page=\(perPage)&page=\(page)").data(Page<T>.self)
            #expect(answer.perPage == perPage)
            items += answer.items
            if answer.items.count < perPage { return (items, answer.total) }
            page += 1
        }
    }

    @Test("every sort order, ties by id; pages join into the whole list", arguments: Backend.allCases)
    func sortAndPaging(backend: Backend) async throws {
        let clock = SettableNow()
        try await withServer(backend: backend, now: clock.function) { server in
            // Two groups per creation time, so created_at has ties for the id to break.
            var groups: [Group] = []
            for name in ["delta", "Alpha", "charlie", "Bravo", "échelon", "foxtrot"] {
                groups.append(try await server.createGroup(name))
                if groups.count.isMultiple(of: 2) { clock.advance(by: 1) }
            }
            let byName = groups.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
            let byCreation = groups.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            let expected: [(String, [Group])] = [
                ("name", byName), ("-name", byName.reversed()), ("created_at", byCreation),
                ("-created_at", groups.sorted { ($0.createdAt, $1.id) > ($1.createdAt, $0.id) }),
            ]
            for (sort, order) in expected {
                let (items, total) = try await allPages(server, "/api/v1/groups", "sort=\(sort)", perPage: 4, as: Group.self)
                #expect(items.map(\.id) == order.map(\.id), "sort \(sort)")
                #expect(total == 6)
            }
            #expect(try await server.call(.get, "/api/v1/groups").data(Page<Group>.self).items.map(\.name)
                    == ["Alpha", "Bravo", "charlie", "delta", "foxtrot", "échelon"], "name is the default order, by code point as the users are")
            #expect(try await server.call(.get, "/api/v1/groups?page=9").data(Page<Group>.self).items.isEmpty)
        }
    }

    @Test("q is a case-insensitive substring of the name", arguments: Backend.allCases)
    func search(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            for name in ["Platform Ops", "DevOps", "Design", "ÉQUIPE"] { _ = try await server.createGroup(name) }
            for (q, names) in [("ops", ["DevOps", "Platform Ops"]), ("OPS", ["DevOps", "Platform Ops"]), ("de", ["Design", "DevOps"]),
                               ("équipe", ["ÉQUIPE"]), ("zz", []), ("", ["Design", "DevOps", "Platform Ops", "ÉQUIPE"])] {
                let encoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? q
                let page = try await server.call(.get, "/api/v1/groups?q=\(encoded)").data(Page<Group>.self)
                #expect(page.items.map(\.name) == names, "q \(q)")
                #expect(page.total == names.count)
            }
        }
    }

    @Test("400 for a bad group list query", arguments: Backend.allCases, ["sort=email", "sort=size", "page=0", "per_page=201", "q=%FF", "page=1&page=2"])
    func badQuery(backend: Backend, query: String) async throws {
        try await withServer(backend: backend) { server in
            let answer = try await server.call(.get, "/api/v1/groups?" + query)
            #expect(answer.status == 400)
            #expect(answer.errorEnvelope?.code == "bad_query")
        }
    }

    @Test("members and users?group= list a group's users with the user list's paging, search and sort", arguments: Backend.allCases)
    func memberLists(backend: Backend) async throws {
        try await withServer(backend: backend, seedCount: 30) { server in
            let everyone = try await server.repository().listUsers(UserQuery(perPage: 200)).items
            let chosen = Array(everyone.shuffled().prefix(12))
            let ops = try await server.createGroup("Ops")
            let ids = chosen.map { #""\#($0.id)""# }.joined(separator: ",")
            _ = try await server.call(.post, "/api/v1/groups/\(ops.id)/members", #"{"add":[\#(ids)]}"#)

            let byEmail = chosen.map(\.id).sorted { a, b in
                let ea = chosen.first { $0.id == a }!.email.lowercased(), eb = chosen.first { $0.id == b }!.email.lowercased()
                return ea < eb
            }
            for path in ["/api/v1/groups/\(ops.id)/members", "/api/v1/users"] {
                let filter = path.hasSuffix("users") ? "group=\(ops.id)&sort=email" : "sort=email"
                let (items, total) = try await allPages(server, path, filter, perPage: 5, as: User.self)
                #expect(items.map(\.id) == byEmail, "\(path)")
                #expect(total == 12)
                #expect(items.allSatisfy { $0.groups.contains(ops.reference) })
            }
            // Search within the group: the first chosen user's email, in upper case.
            let target = chosen[0]
            let q = target.email.uppercased().addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let found = try await server.call(.get, "/api/v1/groups/\(ops.id)/members?q=\(q)").data(Page<User>.self)
            #expect(found.items.map(\.id) == [target.id])
            let filtered = try await server.call(.get, "/api/v1/users?group=\(ops.id)&q=\(q)").data(Page<User>.self)
            #expect(filtered.items.map(\.id) == [target.id])
            // A group id no group has filters everyone out; its member list is a 404.
            #expect(try await server.call(.get, "/api/v1/users?group=nope").data(Page<User>.self).total == 0)
            #expect(try await server.call(.get, "/api/v1/groups/nope/members").status == 404)
            // Without the filter, everyone.
            #expect(try await server.call(.get, "/api/v1/users").data(Page<User>.self).total == 30)
        }
    }
}
