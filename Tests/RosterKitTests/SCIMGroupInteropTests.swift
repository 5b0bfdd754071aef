import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// Roster's SCIM group client against PyPI's scim2-server: with everything on (PATCH, filters,
/// ETags, sort) and with everything off, where membership changes are a PUT of the group and
/// members are read one by one.
@Suite("SCIM groups against scim2-server", .serialized)
struct SCIMGroupInteropTests {
    @Test("create, list, rename, members in and out, pages of members, delete", arguments: [nil, SCIMInteropTests.everythingOff])
    func everyday(config: String?) async throws {
        let full = config == nil
        let peer = try SCIMPeer(serviceProviderConfig: config)
        defer { peer.stop() }
        try await peer.seed(5, bulk: full)
        let users = SCIMDirectory(client: peer.client())
        let groups = users
        let people = try await users.listUsers(UserQuery(perPage: 5)).items
        #expect(people.count == 5)

        let sales = try await groups.createGroup(GroupDraft(name: "Sales"))
        let ops = try await groups.createGroup(GroupDraft(name: "Ops"))
        #expect(sales.name == "Sales")
        #expect(sales.memberCount == 0)
        let all = try await groups.listGroups(GroupQuery())
        #expect(all.total == 2)
        #expect(Set(all.items.map(\.name)) == ["Sales", "Ops"])
        if full {
            #expect(try await groups.listGroups(GroupQuery(search: "sal")).items.map(\.id) == [sales.id])
        } else {
            await #expect(throws: APIError.self) { _ = try await groups.listGroups(GroupQuery(search: "sal")) }
        }

        #expect(try await groups.addMember(people[0].id, to: sales.id).memberCount == 1)
        let changed = try await groups.changeMembers(of: sales.id, MembershipChange(add: people[1...4].map(\.id), remove: [people[0].id]))
        #expect(changed.memberCount == 4)
        let firstPage = try await groups.members(of: sales.id, UserQuery(page: 1, perPage: 3))
        let secondPage = try await groups.members(of: sales.id, UserQuery(page: 2, perPage: 3))
        #expect(firstPage.total == 4)
        #expect(Set((firstPage.items + secondPage.items).map(\.id)) == Set(people[1...4].map(\.id)))
        #expect((firstPage.items + secondPage.items).allSatisfy { !$0.name.isEmpty })

        #expect(try await groups.removeMember(people[2].id, from: sales.id).memberCount == 3)
        #expect(try await groups.group(id: ops.id).memberCount == 0, "the other group is untouched")

        let renamed = try await groups.renameGroup(id: ops.id, to: GroupDraft(name: "Operations"))
        #expect(renamed.name == "Operations")
        #expect(try await groups.group(id: ops.id).name == "Operations")

        try await groups.deleteGroup(id: ops.id)
        await #expect(throws: APIError.self) { _ = try await groups.group(id: ops.id) }
        #expect(try await groups.listGroups(GroupQuery()).total == 1)
    }

    @Test("a rename over a stale version is a 412, and the next try starts from the server's version")
    func staleRename() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        let groups = SCIMDirectory(client: peer.client())
        let team = try await groups.createGroup(GroupDraft(name: "Team"))
        // Someone else renames it: this client's remembered version is now stale.
        let other = SCIMDirectory(client: peer.client())
        _ = try await other.renameGroup(id: team.id, to: GroupDraft(name: "Their name"))
        do {
            _ = try await groups.renameGroup(id: team.id, to: GroupDraft(name: "My name"))
            Issue.record("a stale If-Match must be refused")
        } catch let error as APIError {
            #expect(error.status == 412, "\(error)")
        }
        #expect(try await groups.renameGroup(id: team.id, to: GroupDraft(name: "My name")).name == "My name")
    }
}
