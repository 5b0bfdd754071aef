import Foundation
import RosterKit
import Testing

@Suite("SCIM users: the mapping to Roster users, round trips, ETags, errors")
struct SCIMResourceTests {
    @Test("Attributes Roster does not model come back byte for byte, after POST, PUT and PATCH", arguments: Backend.allCases)
    func roundTrip(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            // Compact JSON, as the server writes it; numbers and member order as sent.
            let custom = #""urn:example:params:scim:schemas:extension:acme:2.0:User":{"badge":"B-7","level":3.50,"clearances":["red",{"z":1,"a":[true,null]}]}"#
            let addresses = #""addresses":[{"streetAddress":"1 Main St","locality":"Springfield","type":"work","primary":true}]"#
            let photos = #""photos":[{"value":"https://example.org/p.jpg","type":"photo"}]"#
            let x509 = #""x509Certificates":[{"value":"MIIDQzCCAqygAwIBAgICEAAwDQYJ"}]"#
            let id = try await server.scimUser(scimUserJSON("rt", email: "rt@example.org", extra: [custom, addresses, photos, x509].joined(separator: ",")))
            let got = try await server.scim(.get, "/Users/\(id)")
            for fragment in [custom, addresses, photos, x509] {
                #expect(got.text.contains(fragment), "\(fragment) missing from \(got.text)")
            }
            #expect((got.object["schemas"] as? [String])?.contains("urn:example:params:scim:schemas:extension:acme:2.0:User") == true)

            let replaced = #""urn:example:params:scim:schemas:extension:acme:2.0:User":{"badge":"C-9","since":"2020-01-01"}"#
            let put = try await server.scim(.put, "/Users/\(id)", scimUserJSON("rt", email: "rt@example.org", extra: replaced + "," + addresses))
            #expect(put.status == 200)
            let afterPut = try await server.scim(.get, "/Users/\(id)").text
            #expect(afterPut.contains(replaced) && afterPut.contains(addresses) && !afterPut.contains("photos"))

            let patch = try await server.scim(.patch, "/Users/\(id)", #"""
                {"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[
                 {"op":"add","path":"urn:example:params:scim:schemas:extension:acme:2.0:User:floor","value":12},
                 {"op":"replace","path":"addresses[type eq \"work\"].locality","value":"Shelbyville"}]}
                """#)
            #expect(patch.status == 200, "\(patch.text)")
            let afterPatch = try await server.scim(.get, "/Users/\(id)").text
            #expect(afterPatch.contains(#""urn:example:params:scim:schemas:extension:acme:2.0:User":{"badge":"C-9","since":"2020-01-01","floor":12}"#))
            #expect(afterPatch.contains(#""locality":"Shelbyville""#))
        }
    }

    @Test("Control characters, U+0000 included, in attributes Roster does not model: kept, answered and filtered on", arguments: Backend.allCases)
    func controlCharacters(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let title = #""title":"a\u0000b\u0001c""#
            let id = try await server.scimUser(scimUserJSON("nul", email: "nul@example.org", extra: title))
            #expect(try await server.scim(.get, "/Users/\(id)").text.contains(title))
            #expect(try await server.ids(filter: #"title eq "A\u0000B\u0001C""#) == [id])
            #expect(try await server.ids(filter: #"title co "\u0000""#) == [id])
        }
    }

    @Test("A user made over SCIM is a Roster user, and a Roster API user is a SCIM user", arguments: Backend.allCases)
    func bothDialects(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let id = try await server.scimUser(#"""
                {"userName":"kim","name":{"givenName":"Kim","familyName":"Park"},"active":false,
                 "emails":[{"value":"kim@home.example","type":"home"},{"value":"kim@work.example","type":"work","primary":true}],
                 "roles":[{"value":"admin","primary":true}]}
                """#)
            let user = try await server.user(id)
            #expect(user.name == "Kim Park" && user.email == "kim@work.example" && user.status == .suspended && user.role == .admin)

            // A Roster API edit shows over SCIM, and keeps what SCIM wrote that Roster does not model.
            _ = try await server.repository().updateUser(id: id, with: UserDraft(name: "Kim Park-Lee", email: "kim@new.example", role: .viewer, status: .active))
            let resource = try await server.scim(.get, "/Users/\(id)").object
            #expect(resource["displayName"] as? String == "Kim Park-Lee")
            #expect(resource["active"] as? Bool == true)
            let emails = try #require(resource["emails"] as? [[String: Any]])
            #expect(emails.map { $0["value"] as? String } == ["kim@home.example", "kim@new.example"])
            #expect((resource["roles"] as? [[String: Any]])?.first?["value"] as? String == "viewer")
            #expect((resource["name"] as? [String: String])?["familyName"] == "Park")

            let rosterUser = try await server.repository().createUser(UserDraft(name: "Lee Roster", email: "lee@example.org", role: .admin))
            let scimView = try await server.scim(.get, "/Users/\(rosterUser.id)").object
            #expect(scimView["userName"] as? String == "lee@example.org", "userName defaults to the email")
            #expect(scimView["displayName"] as? String == "Lee Roster" && scimView["active"] as? Bool == true)
            #expect((scimView["emails"] as? [[String: Any]])?.first?["value"] as? String == "lee@example.org")
            #expect((scimView["roles"] as? [[String: Any]])?.first?["value"] as? String == "admin")

            // userName is unique ignoring case, and a Roster email cannot take someone's userName.
            let taken = try await server.scim(.post, "/Users", scimUserJSON("LEE@example.org", email: "other@example.org"))
            #expect(taken.status == 409 && taken.scimType == "uniqueness")
            let emailTaken = try await server.scim(.post, "/Users", scimUserJSON("someone", email: "LEE@example.org"))
            #expect(emailTaken.status == 409 && emailTaken.scimType == "uniqueness")
            let apiTaken = try await server.call(.post, "/api/v1/users", #"{"name":"K","email":"kim@new.example"}"#)
            #expect(apiTaken.status == 409)
        }
    }

    @Test("ETags: meta.version is the ETag; If-None-Match answers 304, a stale If-Match 412", arguments: Backend.allCases)
    func etags(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let created = try await server.scim(.post, "/Users", scimUserJSON("etag", email: "etag@example.org"))
            let id = try #require(created.object["id"] as? String)
            let version = try #require((created.object["meta"] as? [String: Any])?["version"] as? String)
            #expect(version.hasPrefix("W/\""))
            #expect(created.header("ETag") == version)
            #expect(created.header("Location") == (created.object["meta"] as? [String: Any])?["location"] as? String)

            let unchanged = try await server.scim(.get, "/Users/\(id)", headers: [("If-None-Match", version)])
            #expect(unchanged.status == 304 && unchanged.response.body.isEmpty)

            let patch = #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"title","value":"A"}]}"#
            let first = try await server.scim(.patch, "/Users/\(id)", patch, headers: [("If-Match", version)])
            #expect(first.status == 200)
            let newVersion = try #require(first.header("ETag"))
            #expect(newVersion != version)

            let stale = try await server.scim(.patch, "/Users/\(id)", patch, headers: [("If-Match", version)])
            #expect(stale.status == 412 && stale.isSCIMError, "\(stale.text)")
            #expect(try await server.scim(.put, "/Users/\(id)", scimUserJSON("etag", email: "etag@example.org"), headers: [("If-Match", version)]).status == 412)
            #expect(try await server.scim(.delete, "/Users/\(id)", headers: [("If-Match", version)]).status == 412)
            #expect(try await server.scim(.get, "/Users/\(id)", headers: [("If-None-Match", version)]).status == 200)
            #expect(try await server.scim(.get, "/Users/\(id)", headers: [("If-None-Match", newVersion)]).status == 304)

            // A Roster API edit and a membership change move the version too.
            _ = try await server.repository().updateUser(id: id, with: UserDraft(name: "Renamed", email: "etag@example.org"))
            let afterAPI = try await server.scim(.get, "/Users/\(id)")
            #expect(afterAPI.header("ETag") != newVersion)
            let group = try await server.createGroup("Watchers")
            _ = try await server.call(.put, "/api/v1/groups/\(group.id)/members/\(id)")
            #expect(try await server.scim(.get, "/Users/\(id)").header("ETag") != afterAPI.header("ETag"))

            #expect(try await server.scim(.delete, "/Users/\(id)", headers: [("If-Match", "*")]).status == 204)
            #expect(try await server.scim(.get, "/Users/\(id)").status == 404)
        }
    }

    @Test("Errors are SCIM errors with scimType, the token's 401 included", arguments: Backend.allCases)
    func errors(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let noToken = try await server.raw(.get, "/scim/v2/Users")
            #expect(noToken.status == 401 && noToken.isSCIMError && noToken.header("WWW-Authenticate") == "Bearer")
            let discovery = try await server.raw(.get, "/scim/v2/ServiceProviderConfig")
            #expect(discovery.status == 200, "discovery needs no token")

            let missing = try await server.scim(.get, "/Users/nobody")
            #expect(missing.status == 404 && missing.isSCIMError)
            let noUserName = try await server.scim(.post, "/Users", #"{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"]}"#)
            #expect(noUserName.status == 400 && noUserName.scimType == "invalidValue")
            let noEmail = try await server.scim(.post, "/Users", #"{"userName":"nomail"}"#)
            #expect(noEmail.status == 400 && noEmail.scimType == "invalidValue")
            let badJSON = try await server.scim(.post, "/Users", #"{"userName":"#)
            #expect(badJSON.status == 400 && badJSON.scimType == "invalidSyntax")
            let badType = try await server.scim(.post, "/Users", scimUserJSON("t", email: "t@example.org", extra: #""active":"maybe""#))
            #expect(badType.status == 400 && badType.scimType == "invalidValue")
            let asJSON = try await server.raw(.post, "/scim/v2/Users", headers: TestServer.jsonWithAuthorization, body: .json(scimUserJSON("plainjson", email: "pj@example.org")))
            #expect(asJSON.status == 201, "application/json is accepted too")
            let text = try await server.raw(.post, "/scim/v2/Users", headers: ["Authorization": "Bearer \(TestServer.token)", "Content-Type": "text/plain"], body: .json("{}"))
            #expect(text.status == 415 && text.isSCIMError)
            let wrongMethod = try await server.scim(.delete, "/Users")
            #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "GET, POST")
            let readOnly = try await server.scim(.patch, "/Users/\(try await server.scimUser(scimUserJSON("ro", email: "ro@example.org")))",
                                                 #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"id","value":"x"}]}"#)
            #expect(readOnly.status == 400 && readOnly.scimType == "mutability")
        }
    }
}
