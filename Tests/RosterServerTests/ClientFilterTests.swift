import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// RosterKit's filters and group lookup against the real server, in both dialects: the server
/// does the filtering, so what the client sends must be what the server reads.
@Suite("Client filters against the server")
struct ClientFilterTests {
    /// Six users: three suspended; "Ops" holds two suspended and one active, "Ops Night" one.
    private func prepare(_ server: TestServer) async throws -> (ops: Group, night: Group, users: [User]) {
        let repository = server.repository()
        var users: [User] = []
        for index in 0..<6 {
            users.append(try await repository.createUser(UserDraft(
                name: "Person \(index)", email: "person\(index)@example.com",
                role: index == 0 ? .admin : .member, status: index % 2 == 0 ? .suspended : .active)))
        }
        let ops = try await server.createGroup("Ops")
        let night = try await server.createGroup("Ops Night")
        for user in [users[0], users[1], users[2]] {
            #expect(try await server.call(.put, "/api/v1/groups/\(ops.id)/members/\(user.id)").status == 200)
        }
        #expect(try await server.call(.put, "/api/v1/groups/\(night.id)/members/\(users[4].id)").status == 200)
        return (ops, night, users)
    }

    @Test("Roster API: groups advertised, looked up by name, and status, role and group filters combined")
    func rosterAPI() async throws {
        try await withServer { server in
            let (ops, night, users) = try await prepare(server)
            let repository = server.repository()
            #expect(await repository.traits().hasGroups)
            #expect(Set(try await repository.groups(named: "ops", limit: 20)) == [ops.reference, night.reference])
            #expect(try await repository.groups(named: "night", limit: 20) == [night.reference])

            let suspendedInOps = try await repository.listUsers(UserQuery(status: .suspended, group: ops.id))
            #expect(Set(suspendedInOps.items.map(\.id)) == [users[0].id, users[2].id])
            #expect(suspendedInOps.total == 2)
            let adminsInOps = try await repository.listUsers(UserQuery(search: "person", role: .admin, group: ops.id))
            #expect(adminsInOps.items.map(\.id) == [users[0].id])
            #expect(try await repository.listUsers(UserQuery(status: .suspended)).total == 3)
        }
    }

    @Test("SCIM: the same filters as one filter joined with and, and groups found by displayName", arguments: Backend.allCases)
    func scim(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let (ops, night, users) = try await prepare(server)
            let client = APIClient(baseURL: server.url.appendingPathComponent("scim/v2"), token: TestServer.token,
                                   transport: TestTransport.shared, retryPolicy: .never, logger: quietLogger)
            let repository = SCIMDirectory(client: client)
            _ = try await repository.listUsers(UserQuery(perPage: 1))
            #expect(await repository.traits().hasGroups)
            #expect(Set(try await repository.groups(named: "ops", limit: 20)) == [ops.reference, night.reference])

            let suspendedInOps = try await repository.listUsers(UserQuery(status: .suspended, group: ops.id))
            #expect(Set(suspendedInOps.items.map(\.id)) == [users[0].id, users[2].id])
            let searched = try await repository.listUsers(UserQuery(search: "person0", status: .suspended, group: ops.id))
            #expect(searched.items.map(\.id) == [users[0].id])
            #expect(try await repository.listUsers(UserQuery(status: .active, group: night.id)).total == 0)
        }
    }
}
