import Foundation
import RosterKit
import Testing

@Suite("SCIM PATCH: add, replace, remove; paths with value filters; no-path objects")
struct SCIMPatchTests {
    private func patch(_ server: TestServer, _ id: String, _ operations: String, endpoint: String = "Users") async throws -> RawAnswer {
        try await server.scim(.patch, "/\(endpoint)/\(id)", #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":\#(operations)}"#)
    }

    @Test("Paths: simple, sub-attribute, value filter with and without a sub-attribute, extension URN", arguments: Backend.allCases)
    func paths(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let id = try await server.scimUser(#"""
                {"userName":"pat","displayName":"Pat","emails":[{"value":"pat@work.example","type":"work","primary":true},{"value":"pat@home.example","type":"home"}],
                 "phoneNumbers":[{"value":"555-0100","type":"work"}]}
                """#)
            let answer = try await patch(server, id, #"""
                [{"op":"replace","path":"emails[type eq \"work\"].value","value":"pat@new.example"},
                 {"op":"add","path":"name.familyName","value":"Quinn"},
                 {"op":"Add","path":"phoneNumbers","value":[{"value":"555-0199","type":"mobile"}]},
                 {"op":"remove","path":"emails[type eq \"home\"]"},
                 {"op":"add","path":"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department","value":"Sales"},
                 {"op":"replace","path":"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value","value":"m-1"}]
                """#)
            #expect(answer.status == 200, "a PATCH answers 200 with the resource: \(answer.text)")
            let user = answer.object
            #expect((user["emails"] as? [[String: Any]])?.map { $0["value"] as? String } == ["pat@new.example"])
            #expect((user["name"] as? [String: String])?["familyName"] == "Quinn")
            #expect((user["phoneNumbers"] as? [[String: Any]])?.count == 2)
            let enterprise = user["urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"] as? [String: Any]
            #expect(enterprise?["department"] as? String == "Sales")
            #expect((enterprise?["manager"] as? [String: String])?["value"] == "m-1")
            #expect((user["schemas"] as? [String])?.contains("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User") == true)
            #expect(try await server.user(id).email == "pat@new.example", "the primary email is Roster's email")

            let removeSub = try await patch(server, id, #"[{"op":"remove","path":"phoneNumbers[type eq \"mobile\"].type"},{"op":"remove","path":"name.familyName"}]"#)
            #expect((removeSub.object["phoneNumbers"] as? [[String: Any]])?.last?["type"] == nil)
            #expect(removeSub.object["name"] == nil, "a complex attribute with nothing left is gone")
        }
    }

    @Test("No path: the value's attributes are added or replaced (how Okta and Entra ID send them)", arguments: Backend.allCases)
    func noPath(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let id = try await server.scimUser(scimUserJSON("np", email: "np@example.org", extra: #""displayName":"Np","name":{"givenName":"N","familyName":"P"}"#))
            let answer = try await patch(server, id, #"""
                [{"op":"replace","value":{"active":"False","displayName":"No Path","name":{"familyName":"Path"},
                  "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"employeeNumber":"42"}}}]
                """#)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.object["active"] as? Bool == false, "\"False\" as Entra ID sends it")
            #expect(answer.object["name"] as? [String: String] == ["givenName": "N", "familyName": "Path"], "replace merges a complex attribute")
            let user = try await server.user(id)
            #expect(user.name == "No Path" && user.status == .suspended)
            let add = try await patch(server, id, #"[{"op":"add","value":{"emails":[{"value":"np2@example.org","type":"home"}],"nickName":"N"}}]"#)
            #expect((add.object["emails"] as? [[String: Any]])?.count == 2 && add.object["nickName"] as? String == "N")
        }
    }

    @Test("Removing displayName falls back to the name; replacing with no match on a plain filter adds the entry", arguments: Backend.allCases)
    func fallbacks(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let id = try await server.scimUser(scimUserJSON("fb", email: "fb@example.org", extra: #""displayName":"Shown","name":{"formatted":"Formal Name"}"#))
            let removed = try await patch(server, id, #"[{"op":"remove","path":"displayName"}]"#)
            #expect(removed.object["displayName"] == nil)
            #expect(try await server.user(id).name == "Formal Name")
            let upsert = try await patch(server, id, #"[{"op":"replace","path":"emails[type eq \"work\"].value","value":"fb@work.example"}]"#)
            #expect((upsert.object["emails"] as? [[String: Any]])?.last?["type"] as? String == "work")
        }
    }

    @Test("Refusals: no target, bad paths, bad ops", arguments: Backend.allCases)
    func refusals(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let id = try await server.scimUser(scimUserJSON("bad", email: "bad@example.org"))
            let cases: [(String, String)] = [
                (#"[{"op":"remove"}]"#, "noTarget"),
                (#"[{"op":"replace","path":"emails[type eq \"work\" or value co \"zzz\"].value","value":"a@b.example"}]"#, "noTarget"),
                (#"[{"op":"replace","path":"emails[type eq","value":"x"}]"#, "invalidPath"),
                (#"[{"op":"replace","path":"9lives","value":"x"}]"#, "invalidPath"),
                (#"[{"op":"jump","path":"title","value":"x"}]"#, "invalidSyntax"),
                (#"[{"op":"replace","path":"meta.created","value":"x"}]"#, "mutability"),
                (#"[{"op":"remove","path":"emails"}]"#, "invalidValue"),
            ]
            for (operations, scimType) in cases {
                let answer = try await patch(server, id, operations)
                #expect(answer.status == 400 && answer.scimType == scimType, "\(operations): \(answer.text)")
            }
            let notPatch = try await server.scim(.patch, "/Users/\(id)", #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:SearchRequest"],"Operations":[]}"#)
            #expect(notPatch.status == 400 && notPatch.scimType == "invalidSyntax")
        }
    }
}

@Suite("SCIM groups: membership by PATCH as identity providers send it, and its integrity")
struct SCIMGroupTests {
    private func patch(_ server: TestServer, _ id: String, _ operations: String) async throws -> RawAnswer {
        try await server.scim(.patch, "/Groups/\(id)", #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":\#(operations)}"#)
    }

    private func memberIDs(_ answer: RawAnswer) -> Set<String> {
        Set((answer.object["members"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String })
    }

    @Test("add members, remove members[value eq], remove with a value list, replace members", arguments: Backend.allCases)
    func membership(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            var users: [String] = []
            for index in 0..<4 { users.append(try await server.scimUser(scimUserJSON("m\(index)", email: "m\(index)@example.org"))) }
            let created = try await server.scim(.post, "/Groups", #"{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Eng","externalId":"ext-1","members":[{"value":"\#(users[0])"}]}"#)
            #expect(created.status == 201)
            let group = try #require(created.object["id"] as? String)
            #expect(memberIDs(created) == [users[0]])
            #expect(created.object["externalId"] as? String == "ext-1")

            let added = try await patch(server, group, #"[{"op":"add","path":"members","value":[{"value":"\#(users[1])"},{"value":"\#(users[2])"}]}]"#)
            #expect(added.status == 200 && memberIDs(added) == Set(users[0...2]))
            let removed = try await patch(server, group, #"[{"op":"remove","path":"members[value eq \"\#(users[0])\"]"}]"#)
            #expect(memberIDs(removed) == [users[1], users[2]])
            let entraStyle = try await patch(server, group, #"[{"op":"Remove","path":"members","value":[{"value":"\#(users[1])"}]}]"#)
            #expect(memberIDs(entraStyle) == [users[2]])
            let replaced = try await patch(server, group, #"[{"op":"replace","path":"members","value":[{"value":"\#(users[3])"},{"value":"\#(users[0])"}]}]"#)
            #expect(memberIDs(replaced) == [users[0], users[3]])

            // The Roster API sees the same memberships, and the users carry the group.
            let page = try await server.call(.get, "/api/v1/groups/\(group)/members").data(Page<User>.self)
            #expect(Set(page.items.map(\.id)) == [users[0], users[3]])
            let user = try await server.scim(.get, "/Users/\(users[3])").object
            #expect((user["groups"] as? [[String: Any]])?.first?["display"] as? String == "Eng")

            let renamed = try await patch(server, group, #"[{"op":"replace","path":"displayName","value":"Engineering"}]"#)
            #expect(renamed.object["displayName"] as? String == "Engineering")
            #expect(try await server.user(users[0]).groups.first?.name == "Engineering")

            let emptied = try await patch(server, group, #"[{"op":"remove","path":"members"}]"#)
            #expect(emptied.status == 200 && memberIDs(emptied).isEmpty)
        }
    }

    @Test("An unknown member id is 400 invalidValue and changes nothing, in PATCH, PUT and POST", arguments: Backend.allCases)
    func integrity(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let user = try await server.scimUser(scimUserJSON("solo", email: "solo@example.org"))
            let created = try await server.scim(.post, "/Groups", #"{"displayName":"Solo","members":[{"value":"\#(user)"}]}"#)
            let group = try #require(created.object["id"] as? String)
            let version = created.header("ETag")

            let patchAnswer = try await patch(server, group, #"[{"op":"add","path":"members","value":[{"value":"fake-member-id"}]}]"#)
            #expect(patchAnswer.status == 400 && patchAnswer.scimType == "invalidValue", "\(patchAnswer.text)")
            #expect(patchAnswer.text.contains("fake-member-id"))
            let putAnswer = try await server.scim(.put, "/Groups/\(group)", #"{"displayName":"Solo","members":[{"value":"nobody"}]}"#)
            #expect(putAnswer.status == 400 && putAnswer.scimType == "invalidValue")
            let postAnswer = try await server.scim(.post, "/Groups", #"{"displayName":"Other","members":[{"value":"nobody"}]}"#)
            #expect(postAnswer.status == 400 && postAnswer.scimType == "invalidValue")
            let nested = try await server.scim(.post, "/Groups", #"{"displayName":"Nested","members":[{"value":"\#(group)","type":"Group"}]}"#)
            #expect(nested.status == 400 && nested.scimType == "invalidValue")

            let after = try await server.scim(.get, "/Groups/\(group)")
            #expect(memberIDs(after) == [user] && after.header("ETag") == version, "nothing changed")
            #expect(try await server.scim(.get, "/Groups?filter=" + #"displayName eq "Other""#.queryEncoded).object["totalResults"] as? Int == 0)

            let duplicate = try await server.scim(.post, "/Groups", #"{"displayName":"SOLO"}"#)
            #expect(duplicate.status == 409 && duplicate.scimType == "uniqueness")
            #expect(try await server.scim(.delete, "/Users/\(user)").status == 204)
            #expect(memberIDs(try await server.scim(.get, "/Groups/\(group)")).isEmpty, "deleting a user removes their memberships")
        }
    }
}

@Suite("SCIM Bulk: each operation on its own, bulkId references, bounds")
struct SCIMBulkTests {
    @Test("POSTs, a group naming users by bulkId, a failing operation that leaves the others, failOnErrors", arguments: Backend.allCases)
    func bulk(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let answer = try await server.scim(.post, "/Bulk", #"""
                {"schemas":["urn:ietf:params:scim:api:messages:2.0:BulkRequest"],"Operations":[
                 {"method":"POST","path":"/Users","bulkId":"u1","data":{"userName":"b1","emails":[{"value":"b1@example.org"}]}},
                 {"method":"POST","path":"/Users","bulkId":"u2","data":{"userName":"b2"}},
                 {"method":"POST","path":"/Groups","bulkId":"g1","data":{"displayName":"Bulk","members":[{"value":"bulkId:u1"}]}},
                 {"method":"PATCH","path":"/Users/bulkId:u1","data":{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"title","value":"Bulked"}]}}]}
                """#)
            #expect(answer.status == 200, "\(answer.text)")
            let results = try #require(answer.object["Operations"] as? [[String: Any]])
            #expect(results.map { $0["status"] as? String } == ["201", "400", "201", "200"])
            #expect((results[1]["response"] as? [String: Any])?["scimType"] as? String == "invalidValue")
            let userLocation = try #require(results[0]["location"] as? String)
            let userID = try #require(userLocation.split(separator: "/").last.map(String.init))
            let group = try await server.scim(.get, "/Groups?filter=" + #"displayName eq "Bulk""#.queryEncoded)
            #expect((group.resources.first?["members"] as? [[String: Any]])?.first?["value"] as? String == userID)
            #expect(try await server.user(userID).groups.first?.name == "Bulk")

            let stopping = try await server.scim(.post, "/Bulk", #"""
                {"schemas":["urn:ietf:params:scim:api:messages:2.0:BulkRequest"],"failOnErrors":1,"Operations":[
                 {"method":"DELETE","path":"/Users/nobody"},{"method":"DELETE","path":"/Users/\#(userID)"}]}
                """#)
            #expect((stopping.object["Operations"] as? [[String: Any]])?.count == 1)
            #expect(try await server.scim(.get, "/Users/\(userID)").status == 200, "stopped before the second")

            let operations = Array(repeating: #"{"method":"DELETE","path":"/Users/x"}"#, count: 1001).joined(separator: ",")
            let tooMany = try await server.scim(.post, "/Bulk", #"{"Operations":[\#(operations)]}"#)
            #expect(tooMany.status == 413 && tooMany.isSCIMError)
            let config = try await server.scim(.get, "/ServiceProviderConfig").object["bulk"] as? [String: Any]
            #expect(config?["maxOperations"] as? Int == 1000 && config?["maxPayloadSize"] as? Int == 1_048_576)
        }
    }
}
