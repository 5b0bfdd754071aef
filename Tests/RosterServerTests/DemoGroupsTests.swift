import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// `--seed` and the embedded server make groups along with the users (`DemoGroups`): teams of
/// a company's sizes, the same for the same count, on both databases.
@Suite("Demo groups: seeded along with the users")
struct DemoGroupsTests {
    @Test("the same groups for the same count; the first users are in the same groups whatever the count")
    func deterministic() {
        let small = DemoData.directory(userCount: 300), again = DemoData.directory(userCount: 300)
        let large = DemoData.directory(userCount: 900)
        #expect(small.users == again.users)
        #expect(small.groups.map(\.group) == again.groups.map(\.group))
        #expect(small.groups.map(\.members) == again.groups.map(\.members))
        #expect(Array(large.users.prefix(300)) == small.users)
        #expect(large.groups.map(\.group.id) == small.groups.map(\.group.id))
        // The users themselves are drawn as before groups existed.
        #expect(small.users.map { user in var user = user; user.groups = []; return user } == DemoData.users(count: 300))
    }

    @Test("teams of realistic sizes: Engineering has hundreds, every user is in a department")
    func sizes() throws {
        let directory = DemoData.directory(userCount: 500)
        let sizes = Dictionary(uniqueKeysWithValues: directory.groups.map { ($0.group.name, $0.members.count) })
        #expect(Set(sizes.keys) == Set(DemoGroups.departments.map(\.name) + [DemoGroups.onCall, DemoGroups.leadership]))
        let engineering = try #require(sizes["Engineering"])
        #expect(engineering >= 200)
        #expect(sizes.values.allSatisfy { $0 <= engineering })
        for name in ["Sales", "Support", "Design", "Finance", DemoGroups.onCall, DemoGroups.leadership] {
            #expect(sizes[name, default: 0] > 0, "\(name)")
        }
        let departments = Set(DemoGroups.departments.map(\.name))
        #expect(directory.users.allSatisfy { $0.groups.filter { departments.contains($0.name) }.count == 1 })
    }

    @Test("the company is the first users: a larger seed adds users in no group")
    func staffOnly() {
        let directory = DemoData.directory(userCount: DemoGroups.staff + 300)
        let inGroups = Set(directory.groups.flatMap(\.members))
        #expect(inGroups == Set(0..<DemoGroups.staff))
        #expect(directory.users[DemoGroups.staff...].allSatisfy { $0.groups.isEmpty })
        let engineering = directory.groups.first { $0.group.name == "Engineering" }?.members.count ?? 0
        #expect((4000...4800).contains(engineering))
    }

    @Test("each user carries exactly the groups listing it, sorted as the store sorts them")
    func usersCarryTheirGroups() {
        let directory = DemoData.directory(userCount: 2000)
        var expected = [[GroupReference]](repeating: [], count: directory.users.count)
        for bulkGroup in directory.groups {
            #expect(bulkGroup.group.memberCount == bulkGroup.members.count)
            #expect(bulkGroup.members == bulkGroup.members.sorted())
            for member in bulkGroup.members { expected[member].append(bulkGroup.group.reference) }
        }
        for (user, groups) in zip(directory.users, expected) {
            #expect(user.groups == groups.sorted { (SortKey.of($0.name), $0.id) < (SortKey.of($1.name), $1.id) })
        }
    }

    @Test("a seeded server lists the groups with their members, as the users list them", arguments: Backend.allCases)
    func seededServer(backend: Backend) async throws {
        let directory = DemoData.directory(userCount: 500)
        try await withServer(backend: backend, seedCount: 500) { server in
            let groups = try await server.call(.get, "/api/v1/groups?per_page=100").data(Page<Group>.self)
            #expect(Set(groups.items) == Set(directory.groups.map(\.group)))
            for bulkGroup in directory.groups {
                let members = try await server.call(.get, "/api/v1/groups/\(bulkGroup.group.id)/members?per_page=200")
                    .data(Page<User>.self)
                #expect(members.total == bulkGroup.members.count, "\(bulkGroup.group.name)")
                #expect(members.items.allSatisfy { $0.groups.contains(bulkGroup.group.reference) })
            }
            for place in [0, 1, 250, 499] {
                #expect(try await server.user(directory.users[place].id) == directory.users[place])
            }
        }
    }

    @Test("seeded groups take renames, deletes and new members like any other", arguments: Backend.allCases)
    func seededGroupsChange(backend: Backend) async throws {
        let directory = DemoData.directory(userCount: 200)
        try await withServer(backend: backend, seedCount: 200) { server in
            let design = try #require(directory.groups.first { $0.group.name == "Design" })
            let member = directory.users[try #require(design.members.first)]
            let renamed = try await server.call(.put, "/api/v1/groups/\(design.group.id)", #"{"name":"Product Design"}"#)
                .data(Group.self)
            #expect(renamed.memberCount == design.members.count)
            #expect(try await server.user(member.id).groups.map(\.name).contains("Product Design"))

            let outsider = try #require(directory.users.first { !$0.groups.contains(design.group.reference) })
            let added = try await server.call(.put, "/api/v1/groups/\(design.group.id)/members/\(outsider.id)").data(Group.self)
            #expect(added.memberCount == design.members.count + 1)

            let sales = try #require(directory.groups.first { $0.group.name == "Sales" })
            #expect(try await server.call(.delete, "/api/v1/groups/\(sales.group.id)").status == 200)
            let seller = directory.users[try #require(sales.members.first)]
            #expect(try await server.user(seller.id).groups.allSatisfy { $0.id != sales.group.id })
            #expect(try await server.call(.get, "/api/v1/groups").data(Page<Group>.self).total == directory.groups.count - 1)
        }
    }
}
