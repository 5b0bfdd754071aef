import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// What one membership change sends, from the groups view or a bulk run alike: the Roster
/// API's one-member PUT and DELETE, and SCIM's PATCH of the group (a user's own `groups` is
/// read-only there), or on a service without PATCH the whole group PUT with If-Match.
@Suite("Group membership calls")
struct GroupMembershipTests {
    func bodyJSON(_ request: TransportRequest) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
    }

    @Test func theRosterAPIPutsAndDeletesOneMember() async throws {
        let transport = ScriptedTransportHolder.ok(envelope(#"{"id":"g1","name":"Sales","member_count":1,"created_at":"2025-11-21T09:30:00Z","updated_at":"2025-11-21T09:30:00Z"}"#))
        let repository = RosterAPIDirectory(client: makeClient(transport))
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
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock))
        let call = Task { _ = try await repository.addMember("u1", to: "g1") }
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
        let repository = SCIMDirectory(client: makeClient(transport))
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

    /// A SCIM service without PATCH: the group is read, and PUT back whole with the change and
    /// `If-Match`; a 412 (someone changed it in between) reads it again and applies the change
    /// to what it holds now, never overwriting their member with a stale list.
    @Test func aSCIMServiceWithoutPatchGetsTheWholeGroupPutWithIfMatchAndRereadOn412() async throws {
        let state = GroupOnAService(members: ["u0"], version: "W/\"1\"")
        let transport = ScriptedTransport(.handler { request in
            if request.url.path.hasSuffix("/ServiceProviderConfig") {
                return .text(#"{"patch":{"supported":false},"filter":{"supported":true},"etag":{"supported":true}}"#, contentType: "application/scim+json")
            }
            if request.url.path.contains("/Schemas/") { return .text(#"{"attributes":[]}"#, contentType: "application/scim+json") }
            return await state.answer(request)
        })
        await state.changeBehindOnce(adding: "someone-else")
        let directory = SCIMDirectory(client: makeClient(transport))
        let group = try await directory.addMember("u1", to: "g1")
        #expect(group.memberCount == 3)
        #expect(await state.members == ["u0", "someone-else", "u1"], "the other member stays")
        let puts = transport.requests.filter { $0.method == .put }
        #expect(puts.count == 2, "the first PUT met a 412 and was made again from a fresh read")
        #expect(puts.allSatisfy { $0.headers["If-Match"] != nil })
        #expect(!transport.requests.contains { $0.method == .patch })
    }

    /// A bulk run's calls to one group overlap; on a service without PATCH (nor ETags) each
    /// PUT carries the whole member list, so this directory's own PUTs take turns.
    @Test func overlappingPutsToOneGroupLoseNoMember() async throws {
        let state = GroupOnAService(members: [], version: nil)
        let transport = ScriptedTransport(.handler { request in
            if request.url.path.hasSuffix("/ServiceProviderConfig") {
                return .text(#"{"patch":{"supported":false},"filter":{"supported":true}}"#, contentType: "application/scim+json")
            }
            if request.url.path.contains("/Schemas/") { return .text(#"{"attributes":[]}"#, contentType: "application/scim+json") }
            await Task.yield()
            return await state.answer(request)
        })
        let directory = SCIMDirectory(client: makeClient(transport))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 { group.addTask { _ = try await directory.addMember("u\(index)", to: "g1") } }
            try await group.waitForAll()
        }
        #expect(Set(await state.members) == Set((0..<8).map { "u\($0)" }))
    }
}

/// One SCIM group on a service without PATCH: GET answers it with its version, PUT replaces
/// its members (412 when `If-Match` names an old version).
actor GroupOnAService {
    private(set) var members: [String]
    private var version: Int
    private let usesVersions: Bool
    private var pendingChange: String?

    init(members: [String], version: String?) {
        self.members = members
        self.version = 1
        self.usesVersions = version != nil
    }

    /// Another client adds `member` right after the next read.
    func changeBehindOnce(adding member: String) { pendingChange = member }

    func answer(_ request: TransportRequest) -> TransportResponse {
        switch request.method {
        case .get:
            let body = resource()
            if let change = pendingChange {
                pendingChange = nil
                members.append(change)
                version += 1
            }
            return body
        case .put:
            if usesVersions, request.headers["If-Match"] != tag {
                return .text(#"{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"412"}"#, status: 412, contentType: "application/scim+json")
            }
            let object = (try? JSONSerialization.jsonObject(with: request.body ?? Data())) as? [String: Any]
            members = ((object?["members"] as? [[String: Any]]) ?? []).compactMap { $0["value"] as? String }
            version += 1
            return resource()
        default:
            return .text("{}", status: 405)
        }
    }

    private var tag: String { "W/\"\(version)\"" }
    private var tagInJSON: String { tag.replacingOccurrences(of: "\"", with: "\\\"") }

    private func resource() -> TransportResponse {
        let list = members.map { #"{"value":"\#($0)"}"# }.joined(separator: ",")
        let meta = usesVersions ? #","meta":{"version":"\#(tagInJSON)"}"# : ""
        return .text(#"{"id":"g1","displayName":"Sales","members":[\#(list)]\#(meta)}"#, contentType: "application/scim+json")
    }
}
