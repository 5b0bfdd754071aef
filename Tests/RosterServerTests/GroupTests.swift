import Foundation
import RosterKit
import Testing

@Suite("Groups: create, read, rename, delete, and their errors")
struct GroupTests {
    @Test("/api/v1/health lists the groups feature, so a client knows to offer groups", arguments: Backend.allCases)
    func healthFeature(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let health = try await server.raw(.get, "/api/v1/health").data(HealthStatus.self)
            #expect(health.features?.contains(HealthStatus.groupsFeature) == true)
            #expect(health.features?.contains(HealthStatus.idempotencyKeyFeature) == true)
        }
    }

    @Test("create, get, rename, list, delete: each answer is what was stored", arguments: Backend.allCases)
    func roundTrip(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let created = try await server.call(.post, "/api/v1/groups", #"{"name":"  Operations  "}"#)
            #expect(created.status == 201)
            let group = try created.data(Group.self)
            #expect(group.name == "Operations")
            #expect(group.memberCount == 0)
            #expect(group.createdAt == group.updatedAt)
            #expect(group.id.range(of: "^[0-9a-z]{18}$", options: .regularExpression) != nil)
            #expect(created.header("Location") == "/api/v1/groups/\(group.id)")

            #expect(try await server.call(.get, "/api/v1/groups/\(group.id)").data(Group.self) == group)

            let renamed = try await server.call(.put, "/api/v1/groups/\(group.id)", #"{"name":"Ops"}"#).data(Group.self)
            #expect(renamed.id == group.id)
            #expect(renamed.name == "Ops")
            #expect(renamed.createdAt == group.createdAt)
            #expect(renamed.updatedAt >= group.updatedAt)
            #expect(try await server.call(.get, "/api/v1/groups").data(Page<Group>.self).items == [renamed])

            let removed = try await server.call(.delete, "/api/v1/groups/\(group.id)")
            #expect(removed.status == 200)
            #expect(try removed.data(Group.self) == renamed)
            for method in [HTTPMethod.get, .delete] {
                let gone = try await server.call(method, "/api/v1/groups/\(group.id)")
                #expect(gone.status == 404)
                #expect(gone.errorEnvelope?.code == "not_found")
                #expect(gone.errorEnvelope?.message == "No group has that id.")
            }
            #expect(try await server.call(.get, "/api/v1/groups").data(Page<Group>.self).total == 0)
        }
    }

    @Test("409 name_taken when another group has the name in any case; a group may keep its own", arguments: Backend.allCases)
    func nameTaken(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let ops = try await server.createGroup("Ops")
            let dev = try await server.createGroup("Dev")
            for (method, path) in [(HTTPMethod.post, "/api/v1/groups"), (.put, "/api/v1/groups/\(dev.id)")] {
                let answer = try await server.call(method, path, #"{"name":"OPS"}"#)
                #expect(answer.status == 409, "\(method) \(path)")
                #expect(answer.errorEnvelope?.code == "name_taken")
                #expect(answer.errorEnvelope?.fields?.map(\.field) == ["name"])
            }
            let recased = try await server.call(.put, "/api/v1/groups/\(ops.id)", #"{"name":"OPS"}"#)
            #expect(try recased.data(Group.self).name == "OPS")
            #expect(try await server.call(.get, "/api/v1/groups").data(Page<Group>.self).total == 2)
        }
    }

    @Test("422 for a bad name or an unknown field, 400 for a body that is not a JSON object", arguments: Backend.allCases)
    func invalidBodies(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let group = try await server.createGroup("Ops")
            let cases: [(String, [String])] = [
                (#"{"name":""}"#, ["name"]), (#"{"name":"   "}"#, ["name"]), (#"{}"#, ["name"]),
                (#"{"name":"tab\there"}"#, ["name"]), (#"{"name":"bell\u0007"}"#, ["name"]),
                ("{\"name\":\"\(String(repeating: "n", count: 101))\"}", ["name"]),
                (#"{"name":42}"#, ["name"]), (#"{"name":"Dev","members":[]}"#, ["members"]),
            ]
            for (method, path) in [(HTTPMethod.post, "/api/v1/groups"), (.put, "/api/v1/groups/\(group.id)")] {
                for (body, fields) in cases {
                    let answer = try await server.call(method, path, body)
                    #expect(answer.status == 422, "\(method) \(body)")
                    #expect(answer.errorEnvelope?.code == "validation_failed")
                    #expect(answer.errorEnvelope?.fields?.map(\.field) == fields, "\(method) \(body)")
                }
                for body in ["{", "[]", #""Ops""#] {
                    let answer = try await server.call(method, path, body)
                    #expect(answer.status == 400, "\(method) \(body)")
                    #expect(answer.errorEnvelope?.code == "malformed_json")
                }
            }
            // 100 characters as a person counts them (here 100 flags of 2 scalars each) is allowed.
            let flags = String(repeating: "🇸🇪", count: 100)
            #expect(try await server.call(.post, "/api/v1/groups", #"{"name":"\#(flags)"}"#).status == 201)
            #expect(try await server.call(.get, "/api/v1/groups/\(group.id)").data(Group.self).name == "Ops")
        }
    }

    @Test("404 for an unknown group on every group route; 405 with Allow for a wrong method; 401 without a token", arguments: Backend.allCases)
    func unknownGroupAndMethods(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let user = try await server.repository().createUser(UserDraft(name: "Ada", email: "ada@example.com"))
            let calls: [(HTTPMethod, String, String?)] = [
                (.get, "/api/v1/groups/nope", nil), (.put, "/api/v1/groups/nope", #"{"name":"X"}"#),
                (.delete, "/api/v1/groups/nope", nil), (.get, "/api/v1/groups/nope/members", nil),
                (.post, "/api/v1/groups/nope/members", #"{"add":[]}"#),
                (.put, "/api/v1/groups/nope/members/\(user.id)", nil), (.delete, "/api/v1/groups/nope/members/\(user.id)", nil),
            ]
            for (method, path, body) in calls {
                let answer = try await server.call(method, path, body)
                #expect(answer.status == 404, "\(method) \(path)")
                #expect(answer.errorEnvelope?.message == "No group has that id.", "\(method) \(path)")
                #expect(try await server.raw(method, path).status == 401, "\(method) \(path)")
            }
            let allowed: [(HTTPMethod, String, String)] = [
                (.delete, "/api/v1/groups", "GET, POST"), (.post, "/api/v1/groups/x", "GET, PUT, DELETE"),
                (.put, "/api/v1/groups/x/members", "GET, POST"), (.get, "/api/v1/groups/x/members/y", "PUT, DELETE"),
            ]
            for (method, path, allow) in allowed {
                let answer = try await server.call(method, path)
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer.header("Allow") == allow)
            }
        }
    }
}
