import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// The client's group repositories against the real server: the Roster API's `/api/v1/groups`
/// and the same store through SCIM's `/Groups`. Both must tell the same story.
@Suite("Group repositories against roster-server")
struct GroupRepositoryTests {
    enum Flavour: String, CaseIterable, Sendable { case roster, scim }

    /// Each dialect on each backend.
    static let cases: [(Backend, Flavour)] = [(.sqlite, .roster), (.sqlite, .scim), (.postgres, .roster), (.postgres, .scim)]

    /// The group and user repositories of one dialect on `server`.
    static func repositories(_ flavour: Flavour, on server: TestServer) -> (groups: any Directory, users: any Directory) {
        switch flavour {
        case .roster:
            let client = server.client()
            return (RosterAPIDirectory(client: client), RosterAPIDirectory(client: client))
        case .scim:
            let client = APIClient(baseURL: server.url.appendingPathComponent("scim/v2"), token: TestServer.token,
                                   transport: TestTransport.shared, retryPolicy: .never, logger: quietLogger)
            let users = SCIMDirectory(client: client)
            return (users, users)
        }
    }

    @Test("create, list with search, sort and pages, rename, a taken name, delete", arguments: cases)
    func groupLifecycle(backend: Backend, _ flavour: Flavour) async throws {
        try await withServer(backend: backend) { server in
            let (groups, _) = Self.repositories(flavour, on: server)
            for name in ["Sales", "Ops Night", "Ops Day", "Finance", "Zoë's 🦊 team"] {
                let created = try await groups.createGroup(GroupDraft(name: "  \(name) "))
                #expect(created.name == name, "the name is stored trimmed")
                #expect(created.memberCount == 0)
            }
            let first = try await groups.listGroups(GroupQuery(page: 1, perPage: 2))
            #expect(first.total == 5)
            #expect(first.items.map(\.name) == ["Finance", "Ops Day"])
            let third = try await groups.listGroups(GroupQuery(page: 3, perPage: 2))
            #expect(third.items.map(\.name) == ["Zoë's 🦊 team"])
            let descending = try await groups.listGroups(GroupQuery(sort: .nameDescending))
            #expect(descending.items.first?.name == "Zoë's 🦊 team")
            let ops = try await groups.listGroups(GroupQuery(search: "ops"))
            #expect(ops.items.map(\.name) == ["Ops Day", "Ops Night"])

            let night = try #require(ops.items.last)
            let renamed = try await groups.renameGroup(id: night.id, to: GroupDraft(name: "Ops Evening"))
            #expect(renamed.name == "Ops Evening")
            #expect(try await groups.group(id: night.id).name == "Ops Evening")

            do {
                _ = try await groups.createGroup(GroupDraft(name: "sales"))
                Issue.record("a name taken in another case must be refused")
            } catch let error as APIError {
                #expect(error.status == 409, "\(error)")
            }

            try await groups.deleteGroup(id: night.id)
            await #expect(throws: APIError.self) { _ = try await groups.group(id: night.id) }
            #expect(try await groups.listGroups(GroupQuery()).total == 4)
        }
    }

    @Test("members: add one, add and remove many, pages of members, the user's groups follow", arguments: cases)
    func membership(backend: Backend, _ flavour: Flavour) async throws {
        try await withServer(backend: backend) { server in
            let (groups, users) = Self.repositories(flavour, on: server)
            var people: [User] = []
            for number in 1...7 {
                people.append(try await users.createUser(UserDraft(name: "Person \(number)", email: "person\(number)@example.com")))
            }
            let team = try await groups.createGroup(GroupDraft(name: "Team"))

            let afterOne = try await groups.addMember(people[0].id, to: team.id)
            #expect(afterOne.memberCount == 1)
            #expect(try await groups.addMember(people[0].id, to: team.id).memberCount == 1, "adding a member twice changes nothing")
            #expect(try await users.user(id: people[0].id).groups.map(\.name) == ["Team"])

            let many = try await groups.changeMembers(of: team.id, MembershipChange(add: people[1...6].map(\.id), remove: [people[0].id]))
            #expect(many.memberCount == 6)
            #expect(try await users.user(id: people[0].id).groups.isEmpty)

            var seen: [String] = []
            for page in 1...3 {
                let members = try await groups.members(of: team.id, UserQuery(page: page, perPage: 4))
                #expect(members.total == 6)
                seen += members.items.map(\.id)
            }
            #expect(Set(seen) == Set(people[1...6].map(\.id)))
            #expect(seen.count == 6, "every member once across the pages")

            let afterRemove = try await groups.removeMember(people[3].id, from: team.id)
            #expect(afterRemove.memberCount == 5)
            #expect(try await groups.removeMember(people[3].id, from: team.id).memberCount == 5, "removing twice changes nothing")
            #expect(try await groups.members(of: team.id, UserQuery(perPage: 50)).items.contains { $0.id == people[3].id } == false)

            do {
                _ = try await groups.changeMembers(of: team.id, MembershipChange(add: [people[0].id, "no-such-user"]))
                Issue.record("an unknown member must be refused")
            } catch let error as APIError {
                #expect(error.status == 422 || error.status == 400, "\(error)")
            }
            do {
                _ = try await groups.addMember("no-such-user", to: team.id)
                Issue.record("an unknown member must be refused")
            } catch let error as APIError {
                // One member is the Roster API's PUT of that user, whom it does not find.
                #expect([400, 404, 422].contains(error.status), "\(error)")
            }
            #expect(try await groups.group(id: team.id).memberCount == 5, "the refused change changed nothing")
        }
    }
}
