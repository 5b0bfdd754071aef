import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// What a bulk group action sends per user: the Roster API's one-member PUT and DELETE, and
/// SCIM's PATCH of the group (a user's own `groups` is read-only there).
@Suite("Group membership calls")
struct GroupMembershipTests {
    func bodyJSON(_ request: TransportRequest) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
    }

    @Test func theRosterAPIPutsAndDeletesOneMember() async throws {
        let transport = ScriptedTransportHolder.ok(envelope(#"{"id":"g1","name":"Sales","member_count":1,"created_at":"2025-11-21T09:30:00Z","updated_at":"2025-11-21T09:30:00Z"}"#))
        let repository = RemoteUserRepository(client: makeClient(transport))
        try await repository.addMember("u/1", to: "g1")
        try await repository.removeMember("u/1", from: "g1")
        let requests = transport.requests
        #expect(requests.map(\.method) == [.put, .delete])
        #expect(requests.map(\.url.absoluteString) == [
            "https://api.example.com/roster/api/v1/groups/g1/members/u%2F1", "https://api.example.com/roster/api/v1/groups/g1/members/u%2F1",
        ])
        #expect(requests.allSatisfy { $0.body == nil })
    }

    @Test func aMembershipCallTurnedAwayWith429IsSentAgainAfterRetryAfter() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([
            .respond(.error(429, code: "rate_limited", message: "Slow down.", headers: ["Retry-After": "2"])),
            .respond(.text(envelope(#"{"id":"g1","name":"Sales","member_count":1,"created_at":"2025-11-21T09:30:00Z","updated_at":"2025-11-21T09:30:00Z"}"#))),
        ])
        let repository = RemoteUserRepository(client: makeClient(transport, clock: clock))
        let call = Task { try await repository.addMember("u1", to: "g1") }
        #expect(await clock.waitForRequestedSleep(.seconds(2)), "\(clock.requestedSleeps)")
        await clock.advance(by: .seconds(2))
        try await call.value
        #expect(transport.requestCount == 2)
    }

    @Test func scimPatchesTheGroupWithAnAddOrARemoveOfMembersValueEq() async throws {
        let transport = ScriptedTransport(.handler { request in
            if request.url.path.hasSuffix("/ServiceProviderConfig") {
                return .text(#"{"patch":{"supported":true},"filter":{"supported":true}}"#, contentType: "application/scim+json")
            }
            if request.url.path.contains("/Schemas/") { return .text(#"{"attributes":[]}"#, contentType: "application/scim+json") }
            return .text(#"{"id":"g1","displayName":"Sales"}"#, contentType: "application/scim+json")
        })
        let repository = SCIMUserRepository(client: makeClient(transport))
        try await repository.addMember("u1", to: "g1")
        try await repository.removeMember("u\"1", from: "g1")
        let patches = transport.requests.filter { $0.method == .patch }
        #expect(patches.map(\.url.path) == ["/roster/Groups/g1", "/roster/Groups/g1"])
        #expect(patches.first?.headers["Content-Type"] == "application/scim+json")
        let add = try bodyJSON(patches[0])
        #expect(add["schemas"] as? [String] == ["urn:ietf:params:scim:api:messages:2.0:PatchOp"])
        let addOperation = try #require((add["Operations"] as? [[String: Any]])?.first)
        #expect(addOperation["op"] as? String == "add")
        #expect(addOperation["path"] as? String == "members")
        #expect((addOperation["value"] as? [[String: String]]) == [["value": "u1"]])
        let removeOperation = try #require((try bodyJSON(patches[1])["Operations"] as? [[String: Any]])?.first)
        #expect(removeOperation["op"] as? String == "remove")
        #expect(removeOperation["path"] as? String == #"members[value eq "u\"1"]"#)
    }

    @Test func aSCIMServiceWithoutPatchIsToldNotTried() async throws {
        let transport = ScriptedTransport(.handler { request in
            if request.url.path.hasSuffix("/ServiceProviderConfig") {
                return .text(#"{"patch":{"supported":false},"filter":{"supported":true}}"#, contentType: "application/scim+json")
            }
            return .text(#"{"attributes":[]}"#, contentType: "application/scim+json")
        })
        let repository = SCIMUserRepository(client: makeClient(transport))
        await #expect(throws: APIError.self) { try await repository.addMember("u1", to: "g1") }
        #expect(transport.requests.allSatisfy { $0.method == .get })
    }
}
