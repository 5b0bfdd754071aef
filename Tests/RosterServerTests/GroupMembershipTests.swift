import Foundation
import RosterKit
import Testing

@Suite("Group membership, and the groups every user carries")
struct GroupMembershipTests {
    private func makeUsers(_ server: TestServer, _ count: Int) async throws -> [User] {
        var users: [User] = []
        for index in 0..<count {
            users.append(try await server.repository().createUser(UserDraft(name: "User \(index)", email: "user\(index)@example.com")))
        }
        return users
    }

    private func memberIDs(_ server: TestServer, _ group: Group) async throws -> Set<String> {
        let page = try await server.call(.get, "/api/v1/groups/\(group.id)/members?per_page=200").data(Page<User>.self)
        return Set(page.items.map(\.id))
    }

    @Test("PUT and DELETE one member: idempotent, answered with the group, shown on the user", arguments: Backend.allCases)
    func oneMember(backend: Backend) async throws {
        let clock = SettableNow()
        try await withServer(backend: backend, now: clock.function) { server in
            let user = try await makeUsers(server, 1)[0]
            let ops = try await server.createGroup("Ops")
            let path = "/api/v1/groups/\(ops.id)/members/\(user.id)"

            clock.advance(by: 1)
            let added = try await server.call(.put, path)
            #expect(added.status == 200)
            let afterAdd = try added.data(Group.self)
            #expect(afterAdd.memberCount == 1)
            #expect(afterAdd.updatedAt > ops.updatedAt)
            clock.advance(by: 1)
            #expect(try await server.call(.put, path).data(Group.self) == afterAdd, "a second PUT changes nothing")
            #expect(try await server.user(user.id).groups == [GroupReference(id: ops.id, name: "Ops")])
            #expect(try await server.user(user.id).updatedAt == user.updatedAt, "membership is the group's, not the user's")
            #expect(try await server.repository().listUsers(UserQuery()).items.first?.groups == [ops.reference])

            let removed = try await server.call(.delete, path)
            #expect(try removed.data(Group.self).memberCount == 0)
            #expect(try await server.call(.delete, path).data(Group.self).memberCount == 0)
            #expect(try await server.user(user.id).groups.isEmpty)
            #expect(try await server.repository().listUsers(UserQuery()).items.first?.groups == [])

            for userPath in ["/api/v1/groups/\(ops.id)/members/nobody"] {
                for method in [HTTPMethod.put, .delete] {
                    let answer = try await server.call(method, userPath)
                    #expect(answer.status == 404)
                    #expect(answer.errorEnvelope?.message == "No user has that id.")
                }
            }
        }
    }

    @Test("POST add/remove changes many members at once; a user's groups are sorted by name", arguments: Backend.allCases)
    func manyMembers(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let users = try await makeUsers(server, 5)
            let ops = try await server.createGroup("ops")
            let admins = try await server.createGroup("Admins")
            let path = "/api/v1/groups/\(ops.id)/members"

            let first = try await server.call(.post, path, #"{"add":["\#(users[0].id)","\#(users[1].id)","\#(users[2].id)","\#(users[2].id)"]}"#)
            #expect(first.status == 200)
            #expect(try first.data(Group.self).memberCount == 3)
            let second = try await server.call(.post, path, #"{"add":["\#(users[3].id)"],"remove":["\#(users[0].id)","\#(users[4].id)"]}"#)
            #expect(try second.data(Group.self).memberCount == 3)
            #expect(try await memberIDs(server, ops) == Set([users[1].id, users[2].id, users[3].id]))
            #expect(try await server.call(.post, path, "{}").data(Group.self).memberCount == 3)

            _ = try await server.call(.put, "/api/v1/groups/\(admins.id)/members/\(users[2].id)")
            #expect(try await server.user(users[2].id).groups.map(\.name) == ["Admins", "ops"])
            #expect(try await server.user(users[0].id).groups.isEmpty)
        }
    }

    @Test("422 unknown_users lists every unknown id, and nothing changes; other bad bodies are 422 or 400", arguments: Backend.allCases)
    func unknownIDs(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let users = try await makeUsers(server, 2)
            let ops = try await server.createGroup("Ops")
            let path = "/api/v1/groups/\(ops.id)/members"
            let answer = try await server.call(.post, path, #"{"add":["\#(users[0].id)","ghost-1"],"remove":["ghost-2","\#(users[1].id)"]}"#)
            #expect(answer.status == 422)
            #expect(answer.errorEnvelope?.code == "unknown_users")
            #expect(answer.errorEnvelope?.fields?.map(\.field) == ["add[1]", "remove[0]"])
            #expect(answer.errorEnvelope?.fields?.map(\.message) == ["No user has the id “ghost-1”.", "No user has the id “ghost-2”."])
            #expect(try await memberIDs(server, ops).isEmpty, "the known id in the same call was not added either")
            #expect(try await server.call(.get, "/api/v1/groups/\(ops.id)").data(Group.self).updatedAt == ops.updatedAt)

            let tooMany = "[" + (0..<1001).map { #""id\#($0)""# }.joined(separator: ",") + "]"
            let bad: [(String, Int, [String]?)] = [
                (#"{"add":\#(tooMany)}"#, 422, ["add"]),
                (#"{"add":["\#(users[0].id)"],"remove":["\#(users[0].id)"]}"#, 422, ["remove[0]"]),
                (#"{"add":"\#(users[0].id)"}"#, 422, ["add"]), (#"{"add":[1]}"#, 422, ["add"]),
                (#"{"members":[]}"#, 422, ["members"]), ("[]", 400, nil), ("{", 400, nil),
            ]
            for (body, status, fields) in bad {
                let answer = try await server.call(.post, path, body)
                #expect(answer.status == status, "\(body.prefix(80))")
                if let fields { #expect(answer.errorEnvelope?.fields?.map(\.field) == fields, "\(body.prefix(80))") }
            }
            // 1,000 ids is the limit, not over it: here all unknown, so every one is listed.
            let thousand = "[" + (0..<1000).map { #""id\#($0)""# }.joined(separator: ",") + "]"
            let atLimit = try await server.call(.post, path, #"{"remove":\#(thousand)}"#)
            #expect(atLimit.errorEnvelope?.code == "unknown_users")
            #expect(atLimit.errorEnvelope?.fields?.count == 1000)
            // Long ids can make even 1,000 of them more than the 64 KiB any body may have.
            let long = "[" + (0..<1000).map { #""\#(String(repeating: "x", count: 70))\#($0)""# }.joined(separator: ",") + "]"
            let tooLarge = try await server.call(.post, path, #"{"add":\#(long)}"#)
            #expect(tooLarge.status == 413)
            #expect(tooLarge.errorEnvelope?.code == "payload_too_large")
            #expect(try await memberIDs(server, ops).isEmpty)
        }
    }

    @Test("deleting a user takes them out of their groups in the same transaction", arguments: Backend.allCases)
    func deletingUser(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let users = try await makeUsers(server, 2)
            let ops = try await server.createGroup("Ops")
            let dev = try await server.createGroup("Dev")
            for group in [ops, dev] {
                _ = try await server.call(.post, "/api/v1/groups/\(group.id)/members", #"{"add":["\#(users[0].id)","\#(users[1].id)"]}"#)
            }
            let removed = try await server.call(.delete, "/api/v1/users/\(users[0].id)").data(User.self)
            #expect(removed.groups.map(\.name) == ["Dev", "Ops"], "the removed user, as they were")
            for group in [ops, dev] {
                #expect(try await server.call(.get, "/api/v1/groups/\(group.id)").data(Group.self).memberCount == 1)
                #expect(try await memberIDs(server, group) == [users[1].id])
            }
            // The id is gone for good: adding it now is an unknown id.
            let again = try await server.call(.post, "/api/v1/groups/\(ops.id)/members", #"{"add":["\#(users[0].id)"]}"#)
            #expect(again.errorEnvelope?.code == "unknown_users")
        }
    }

    @Test("deleting or renaming a group shows at once in its members' JSON, in gets and in cached lists", arguments: Backend.allCases)
    func groupChangesReachUsers(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let users = try await makeUsers(server, 2)
            let ops = try await server.createGroup("Ops")
            let dev = try await server.createGroup("Dev")
            _ = try await server.call(.put, "/api/v1/groups/\(ops.id)/members/\(users[0].id)")
            _ = try await server.call(.put, "/api/v1/groups/\(dev.id)/members/\(users[0].id)")
            let repository = server.repository()
            for _ in 0..<2 { #expect(try await repository.listUsers(UserQuery()).items[0].groups.map(\.name) == ["Dev", "Ops"]) }

            _ = try await server.call(.put, "/api/v1/groups/\(ops.id)", #"{"name":"Alpha"}"#)
            #expect(try await server.user(users[0].id).groups.map(\.name) == ["Alpha", "Dev"])
            #expect(try await repository.listUsers(UserQuery()).items[0].groups.map(\.name) == ["Alpha", "Dev"])

            _ = try await server.call(.delete, "/api/v1/groups/\(dev.id)")
            #expect(try await server.user(users[0].id).groups == [GroupReference(id: ops.id, name: "Alpha")])
            #expect(try await repository.listUsers(UserQuery()).items[0].groups.map(\.name) == ["Alpha"])
            #expect(try await server.user(users[1].id).groups.isEmpty)
            // A user's own update keeps their groups in the answer and in the stored JSON.
            let updated = try await repository.updateUser(id: users[0].id, with: UserDraft(name: "Renamed", email: "user0@example.com"))
            #expect(updated.groups.map(\.name) == ["Alpha"])
            #expect(try await server.user(users[0].id).groups.map(\.name) == ["Alpha"])
        }
    }
}
