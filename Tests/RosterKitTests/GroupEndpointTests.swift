import Foundation
import Testing
@testable import RosterKit

/// The group calls as requests: paths, methods, bodies, and the headers that make a retry safe.
@Suite("Building group requests")
struct GroupEndpointTests {
    let encoder = WireFormat.makeEncoder()

    func request(_ endpoint: some Endpoint) throws -> TransportRequest {
        try endpoint.makeRequest(baseURL: testBaseURL, encoder: encoder)
    }

    func body(_ request: TransportRequest) throws -> String {
        String(decoding: try #require(request.body), as: UTF8.self)
    }

    @Test func aCreateIsAPostOfTheNameWithItsIdempotencyKey() throws {
        let request = try request(GroupEndpoint.create(GroupDraft(name: "Sales"), idempotencyKey: "k-1"))
        #expect(request.method == .post)
        #expect(request.url.path == "/roster/api/v1/groups")
        #expect(request.headers[IdempotencyKey.header] == "k-1")
        #expect(try body(request) == #"{"name":"Sales"}"#)
    }

    @Test func oneMemberIsAPutOrADeleteOfTheUsersPathUnderTheGroup() throws {
        let add = try request(GroupEndpoint.setMember(groupID: "g/1", userID: "u 2", isMember: true))
        #expect(add.method == .put)
        #expect(add.url.absoluteString == "https://api.example.com/roster/api/v1/groups/g%2F1/members/u%202")
        #expect(add.body == nil)
        let remove = try request(GroupEndpoint.setMember(groupID: "g", userID: "u", isMember: false))
        #expect(remove.method == .delete)
    }

    @Test func manyMembersArePostedAsAddAndRemove() throws {
        let request = try request(GroupEndpoint.changeMembers(groupID: "g", MembershipChange(add: ["a", "b"], remove: ["c"])))
        #expect(request.method == .post)
        #expect(request.url.path == "/roster/api/v1/groups/g/members")
        let body = try #require(request.body)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: [String]]
        #expect(object == ["add": ["a", "b"], "remove": ["c"]])
    }

    @Test func theMemberListSendsTheUserQueryWithoutAGroupFilter() throws {
        let request = try request(GroupEndpoint.members(groupID: "g", UserQuery(page: 2, perPage: 10, search: "ana", group: "other")))
        #expect(request.url.path == "/roster/api/v1/groups/g/members")
        #expect(request.url.query == "page=2&per_page=10&q=ana&sort=name")
    }

    @Test func scimMembershipIsOneAddAndARemoveByValueFilterPerUser() throws {
        let operations = SCIMGroupMapping.membershipOperations(MembershipChange(add: ["a", "b"], remove: [#"c"d"#]))
        #expect(operations == [
            .object(["op": .string("add"), "path": .string("members"), "value": .array([.object(["value": .string("a")]), .object(["value": .string("b")])])]),
            .object(["op": .string("remove"), "path": .string(#"members[value eq "c\"d"]"#)]),
        ])
        let patch = try request(SCIMGroupEndpoint.patch(id: "g", operations, ifMatch: #"W/"3""#))
        #expect(patch.method == .patch)
        #expect(patch.url.path == "/roster/Groups/g")
        #expect(patch.headers["If-Match"] == #"W/"3""#)
        #expect(patch.headers["Content-Type"] == SCIMSchemas.mediaType)
    }

    @Test func aServiceWithoutPatchGetsItsGroupBackWithTheMembersChanged() {
        let resource = JSONValue.object([
            "id": .string("g"), "displayName": .string("Ops"), "externalId": .string("ext"),
            "members": .array([.object(["value": .string("a"), "display": .string("Ana")]), .object(["value": .string("b")])]),
            "meta": .object(["version": .string("W/\"1\"")]),
        ])
        let replaced = SCIMGroupMapping.applying(MembershipChange(add: ["c", "a"], remove: ["b"]), to: resource)
        #expect(SCIMGroupMapping.memberIDs(of: replaced) == ["a", "c"])
        #expect(replaced[attribute: "externalId"] == .string("ext"), "what Roster does not model is sent back")
        #expect(replaced[attribute: "members"]?.arrayValue?.first?[attribute: "display"] == .string("Ana"))
        #expect(replaced[attribute: "meta"] == nil)
        #expect(SCIMGroupMapping.group(from: resource)?.memberCount == 2)
    }
}
