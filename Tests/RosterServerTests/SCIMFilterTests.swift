import Foundation
import RosterKit
import Testing

/// Filters (RFC 7644 section 3.4.2.2) against the real server, translated to SQL.
@Suite("SCIM filters: every operator, and/or/not, grouping, value paths, dates, booleans, case")
struct SCIMFilterTests {
    struct People {
        var alice = "", bob = "", carol = "", dave = "", erin = ""
    }

    /// Five users, a second apart: four over SCIM, Dave over the Roster API (no SCIM document).
    private func withPeople(_ backend: Backend, _ body: (TestServer, People) async throws -> Void) async throws {
        let clock = SettableNow()
        try await withServer(backend: backend, now: clock.function) { server in
            var people = People()
            people.alice = try await server.scimUser(#"""
                {"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
                 "userName":"alice@example.org","displayName":"Alice Archer","name":{"givenName":"Alice","familyName":"Archer"},
                 "title":"Engineer","active":true,
                 "emails":[{"value":"alice@example.org","type":"work","primary":true},{"value":"alice@home.net","type":"home"}],
                 "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"department":"R&D","employeeNumber":"1001"}}
                """#)
            clock.advance(by: 1)
            people.bob = try await server.scimUser(#"""
                {"userName":"Bob.Builder","displayName":"Bob Builder","title":"Manager","active":false,
                 "emails":[{"value":"bob@example.com","type":"work"}],
                 "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"department":"Ops"}}
                """#)
            clock.advance(by: 1)
            people.carol = try await server.scimUser(#"""
                {"userName":"carol","displayName":"Carol Çelik","active":true,"emails":[{"value":"carol@example.org","type":"home"}]}
                """#)
            clock.advance(by: 1)
            people.dave = try await server.repository().createUser(UserDraft(name: "Dave Doe", email: "dave@example.net")).id
            clock.advance(by: 1)
            people.erin = try await server.scimUser(#"""
                {"userName":"erin@example.org","displayName":"Erin","emails":[{"value":"Erin@Example.ORG","type":"work","primary":true}]}
                """#)
            try await body(server, people)
        }
    }

    @Test("eq ne co sw ew pr, each on a string attribute", arguments: Backend.allCases)
    func stringOperators(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, p: People) async throws in
            #expect(try await server.ids(filter: #"userName eq "carol""#) == [p.carol])
            #expect(try await Set(server.ids(filter: #"userName ne "carol""#)) == [p.alice, p.bob, p.dave, p.erin])
            #expect(try await server.ids(filter: #"displayName co "build""#) == [p.bob])
            #expect(try await Set(server.ids(filter: #"userName sw "a""#)) == [p.alice])
            #expect(try await Set(server.ids(filter: #"userName ew "example.org""#)) == [p.alice, p.erin])
            #expect(try await Set(server.ids(filter: "title pr")) == [p.alice, p.bob])
            #expect(try await Set(server.ids(filter: "not (title pr)")) == [p.carol, p.dave, p.erin])
        }
    }

    @Test("gt ge lt le on strings and on meta dates", arguments: Backend.allCases)
    func ordering(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, p: People) async throws in
            #expect(try await Set(server.ids(filter: #"userName gt "carol""#)) == [p.dave, p.erin])
            #expect(try await Set(server.ids(filter: #"userName ge "carol""#)) == [p.carol, p.dave, p.erin])
            #expect(try await Set(server.ids(filter: #"userName lt "bob.builder""#)) == [p.alice])
            #expect(try await Set(server.ids(filter: #"userName le "bob.builder""#)) == [p.alice, p.bob])
            // Alice was created at 2027-01-15T08:00:00Z, each next user a second later.
            #expect(try await Set(server.ids(filter: #"meta.created gt "2027-01-15T08:00:02Z""#)) == [p.dave, p.erin])
            #expect(try await Set(server.ids(filter: #"meta.created lt "2027-01-15T08:00:01Z""#)) == [p.alice])
            #expect(try await Set(server.ids(filter: #"meta.lastModified ge "2027-01-15T08:00:03Z""#)) == [p.dave, p.erin])
            #expect(try await Set(server.ids(filter: #"meta.created le "2027-01-15T08:00:01.000Z""#)) == [p.alice, p.bob])
        }
    }

    @Test("Booleans: active eq true / false, for SCIM users and a Roster API user", arguments: Backend.allCases)
    func booleans(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, p: People) async throws in
            // Erin sent no active: she has none, so neither comparison matches her; Dave is active in Roster.
            #expect(try await Set(server.ids(filter: "active eq true")) == [p.alice, p.carol, p.dave])
            #expect(try await Set(server.ids(filter: "active eq false")) == [p.bob])
            #expect(try await Set(server.ids(filter: "active ne true")) == [p.bob, p.erin])
        }
    }

    @Test("and binds tighter than or; parentheses and not group", arguments: Backend.allCases)
    func precedence(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, p: People) async throws in
            // a or (b and c): Carol by the first term alone.
            #expect(try await Set(server.ids(filter: #"userName eq "carol" or title eq "Engineer" and active eq false"#)) == [p.carol])
            // (a or b) and c: neither Carol (no title) nor Alice (active) pass c.
            #expect(try await Set(server.ids(filter: #"(userName eq "carol" or title eq "Engineer") and active eq false"#)).isEmpty)
            #expect(try await Set(server.ids(filter: #"(userName eq "carol" or title eq "Manager") and active eq false"#)) == [p.bob])
            #expect(try await Set(server.ids(filter: #"not (userName sw "a" or userName sw "b") and emails pr"#)) == [p.carol, p.dave, p.erin])
            #expect(try await Set(server.ids(filter: #"not(not(userName eq "carol"))"#)) == [p.carol])
        }
    }

    @Test("Value paths, sub-attributes of multi-valued attributes, emails without a sub-attribute", arguments: Backend.allCases)
    func valuePaths(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, p: People) async throws in
            #expect(try await Set(server.ids(filter: #"emails[type eq "work" and value co "@example.org"]"#)) == [p.alice, p.erin])
            #expect(try await Set(server.ids(filter: #"emails[type eq "home"]"#)) == [p.alice, p.carol])
            #expect(try await Set(server.ids(filter: #"emails[type eq "home" or primary eq true]"#)) == [p.alice, p.carol, p.dave, p.erin])
            #expect(try await Set(server.ids(filter: #"emails.type eq "work""#)) == [p.alice, p.bob, p.erin])
            #expect(try await Set(server.ids(filter: #"emails co "home.net""#)) == [p.alice])
            // Dave, made through the Roster API, has his email as the primary one.
            #expect(try await server.ids(filter: #"emails[value eq "dave@example.net" and primary eq true]"#) == [p.dave])
            #expect(try await server.ids(filter: #"name.familyName eq "archer""#) == [p.alice])
            #expect(try await Set(server.ids(filter: "name pr")) == [p.alice])
        }
    }

    @Test("Schema URN prefixes, enterprise attributes, and attribute names in any case", arguments: Backend.allCases)
    func urnsAndCase(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, p: People) async throws in
            #expect(try await server.ids(filter: #"urn:ietf:params:scim:schemas:core:2.0:User:userName eq "carol""#) == [p.carol])
            #expect(try await server.ids(filter: #"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department eq "ops""#) == [p.bob])
            #expect(try await server.ids(filter: #"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber pr"#) == [p.alice])
            #expect(try await server.ids(filter: #"USERNAME EQ "CAROL""#) == [p.carol])
            #expect(try await server.ids(filter: #"DisplayName Co "ÇELİK""#.replacingOccurrences(of: "İ", with: "I")) == [p.carol])
            #expect(try await Set(server.ids(filter: #"emails.VALUE co "EXAMPLE.ORG""#)) == [p.alice, p.carol, p.erin])
            #expect(try await server.ids(filter: #"userName eq "Bob.Builder""#) == [p.bob])
            // id and externalId are case-exact.
            #expect(try await server.ids(filter: #"id eq "\#(p.bob)""#) == [p.bob])
            #expect(try await server.ids(filter: #"id eq "\#(p.bob.uppercased())""#).isEmpty)
        }
    }

    @Test("Groups: a user's groups, and group filters on displayName and members", arguments: Backend.allCases)
    func groups(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, p: People) async throws in
            let group = try await server.scim(.post, "/Groups", #"{"displayName":"Ops Team","members":[{"value":"\#(p.bob)"},{"value":"\#(p.dave)"}]}"#)
            #expect(group.status == 201, "\(group.text)")
            #expect(try await Set(server.ids(filter: #"groups.display eq "ops team""#)) == [p.bob, p.dave])
            #expect(try await Set(server.ids(filter: "groups pr")) == [p.bob, p.dave])
            let byMember = try await server.scim(.get, "/Groups?filter=" + #"members[value eq "\#(p.dave)"] and displayName sw "ops""#.queryEncoded)
            #expect(byMember.object["totalResults"] as? Int == 1)
        }
    }

    @Test("Unknown attributes and malformed filters are 400 invalidFilter", arguments: Backend.allCases)
    func invalid(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, _: People) async throws in
            for filter in [
                #"nickname2 eq "x""#, #"urn:example:custom:1.0:User:badge eq "x""#, #"userName eq"#, #"userName zz "x""#,
                #"(userName eq "x""#, #"emails[type eq "work""#, #"userName eq "x" and"#, "", #"active gt true"#,
                #"meta.created gt "yesterday""#, #"userName eq unquoted"#, #"name eq "x""#, #"emails[type eq "a"][value eq "b"]"#,
            ] where !filter.isEmpty {
                let answer = try await server.scim(.get, "/Users?filter=" + filter.queryEncoded)
                #expect(answer.status == 400, "\(filter): \(answer.text)")
                #expect(answer.scimType == "invalidFilter", "\(filter): \(answer.text)")
                #expect(answer.isSCIMError)
            }
        }
    }

    @Test("POST .search takes the same filter in a body; /.search covers users and groups", arguments: Backend.allCases)
    func search(backend: Backend) async throws {
        try await withPeople(backend) { (server: TestServer, p: People) async throws in
            let answer = try await server.scim(.post, "/Users/.search", #"""
                {"schemas":["urn:ietf:params:scim:api:messages:2.0:SearchRequest"],"filter":"emails[type eq \"work\"]",
                 "sortBy":"userName","sortOrder":"descending","attributes":["userName"],"startIndex":1,"count":2}
                """#)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.object["totalResults"] as? Int == 3)
            #expect(answer.resources.map { $0["userName"] as? String } == ["erin@example.org", "Bob.Builder"])
            #expect(answer.resources.allSatisfy { $0["emails"] == nil && $0["id"] != nil })
            _ = try await server.scim(.post, "/Groups", #"{"displayName":"Carol's group"}"#)
            let everything = try await server.scim(.post, "/.search", #"{"filter":"displayName co \"carol\""}"#)
            #expect(everything.object["totalResults"] as? Int == 2, "\(everything.text)")
            #expect(Set(everything.resources.compactMap { ($0["meta"] as? [String: Any])?["resourceType"] as? String }) == ["User", "Group"])
            _ = p
        }
    }
}
