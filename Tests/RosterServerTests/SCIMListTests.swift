import Foundation
import RosterKit
import Testing

@Suite("SCIM lists: paging, the largest page, sort, attributes")
struct SCIMListTests {
    @Test("startIndex and count page through totalResults; count above maxResults gives maxResults", arguments: Backend.allCases)
    func paging(backend: Backend) async throws {
        try await withServer(backend: backend, seedCount: 250) { server in
            let first = try await server.scim(.get, "/Users?startIndex=1&count=100")
            #expect(first.status == 200)
            #expect(first.header("Content-Type") == "application/scim+json")
            #expect(first.object["totalResults"] as? Int == 250)
            #expect(first.object["itemsPerPage"] as? Int == 100)
            #expect(first.object["startIndex"] as? Int == 1)
            let last = try await server.scim(.get, "/Users?startIndex=201&count=100")
            #expect(last.object["itemsPerPage"] as? Int == 50)
            let beyond = try await server.scim(.get, "/Users?startIndex=400")
            #expect(beyond.resources.isEmpty && beyond.object["totalResults"] as? Int == 250)

            let capped = try await server.scim(.get, "/Users?count=1000")
            #expect(capped.object["itemsPerPage"] as? Int == 200, "filter.maxResults is 200")
            let config = try await server.scim(.get, "/ServiceProviderConfig")
            #expect((config.object["filter"] as? [String: Any])?["maxResults"] as? Int == 200)

            let none = try await server.scim(.get, "/Users?count=0")
            #expect(none.resources.isEmpty && none.object["totalResults"] as? Int == 250)
            let defaulted = try await server.scim(.get, "/Users?startIndex=0&count=-5")
            #expect(defaulted.object["startIndex"] as? Int == 1 && defaulted.resources.isEmpty)

            // Pages in the default order join up: every user once.
            var seen: [String] = []
            for start in stride(from: 1, through: 250, by: 60) {
                seen += try await server.scim(.get, "/Users?startIndex=\(start)&count=60").resources.compactMap { $0["id"] as? String }
            }
            #expect(seen.count == 250 && Set(seen).count == 250)

            for bad in ["startIndex=one", "count=many", "sortOrder=sideways"] {
                let answer = try await server.scim(.get, "/Users?" + bad)
                #expect(answer.status == 400 && answer.scimType == "invalidValue", "\(bad): \(answer.text)")
            }
        }
    }

    @Test("sortBy and sortOrder: userName, meta.created, emails, title; unassigned values last", arguments: Backend.allCases)
    func sorting(backend: Backend) async throws {
        let clock = SettableNow()
        try await withServer(backend: backend, now: clock.function) { server in
            for (userName, title) in [("mike", "b"), ("Zoe", ""), ("anna", "a"), ("Bert", "c")] {
                let extra = title.isEmpty ? "" : #""title":"\#(title)""#
                try await server.scimUser(scimUserJSON(userName, email: "\(userName.lowercased())@example.org", extra: extra))
                clock.advance(by: 1)
            }
            func names(_ query: String) async throws -> [String] {
                try await server.scim(.get, "/Users?" + query).resources.compactMap { $0["userName"] as? String }
            }
            #expect(try await names("sortBy=userName") == ["anna", "Bert", "mike", "Zoe"], "ignoring case")
            #expect(try await names("sortBy=userName&sortOrder=descending") == ["Zoe", "mike", "Bert", "anna"])
            #expect(try await names("sortBy=meta.created&sortOrder=descending") == ["Bert", "anna", "Zoe", "mike"])
            #expect(try await names("sortBy=emails") == ["anna", "Bert", "mike", "Zoe"])
            #expect(try await names("sortBy=title") == ["anna", "mike", "Bert", "Zoe"], "Zoe has no title: last")
            #expect(try await names("sortBy=title&sortOrder=descending") == ["Bert", "mike", "anna", "Zoe"])
            #expect(try await names("sortBy=USERNAME&sortOrder=Descending") == ["Zoe", "mike", "Bert", "anna"], "attribute names ignore case")
            let unknown = try await server.scim(.get, "/Users?sortBy=shoeSize")
            #expect(unknown.status == 400 && unknown.isSCIMError)
        }
    }

    @Test("attributes and excludedAttributes on lists and single resources; id, schemas and meta always come", arguments: Backend.allCases)
    func projection(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let id = try await server.scimUser(scimUserJSON("pat", email: "pat@example.org", extra: #""title":"Chief","name":{"givenName":"Pat","familyName":"Lee"}"#))
            let only = try await server.scim(.get, "/Users?attributes=userName,name.givenName")
            let resource = try #require(only.resources.first)
            #expect(Set(resource.keys) == ["schemas", "id", "meta", "userName", "name"])
            #expect(resource["name"] as? [String: String] == ["givenName": "Pat"])
            let without = try await server.scim(.get, "/Users/\(id)?excludedAttributes=emails,title,meta")
            #expect(without.object["emails"] == nil && without.object["title"] == nil)
            #expect(without.object["meta"] != nil && without.object["userName"] as? String == "pat")
            let urn = try await server.scim(.get, "/Users/\(id)?attributes=urn:ietf:params:scim:schemas:core:2.0:User:title")
            #expect(urn.object["title"] as? String == "Chief" && urn.object["userName"] == nil)
        }
    }
}
