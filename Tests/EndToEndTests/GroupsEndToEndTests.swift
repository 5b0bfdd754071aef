import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// The groups view with the real binaries in tmux. An extension of the serialized end-to-end
/// suite, so it never runs beside its other scenarios.
extension EndToEndTests {
    @Test func tabToGroupsCreateOneAddAMemberSeeItInTheirDetailAndRemoveIt() async throws {
        let server = try await ServerProcess(seed: 20)
        defer { server.stop() }
        // The seed makes demo groups; this scenario starts from none.
        for group in try await server.repository.listGroups(GroupQuery(perPage: 200)).items {
            try await server.repository.deleteGroup(id: group.id)
        }
        let first = try #require(try await server.repository.listUsers(UserQuery(perPage: 1)).items.first)
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 20")

        try session.tmux.send("Tab")
        try await session.tmux.waitFor("No groups yet")
        try session.tmux.send("n")
        try await session.tmux.waitFor("New group")
        try session.tmux.type("Night Shift")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Created Night Shift")
        try await session.tmux.waitFor("Members of Night Shift")

        // Add the first user, found by their email.
        try session.tmux.send("a")
        try await session.tmux.waitFor("Add to Night Shift")
        let needle = String(first.email.prefix { $0 != "@" })
        try session.tmux.type(needle)
        try await session.tmux.waitForScreen("the picker to offer \(first.email)") { screen in
            screen.contains(first.email) && !screen.contains("Searching")
        }
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Added \(first.name) to Night Shift")
        #expect(try await server.repository.user(id: first.id).groups.map(\.name) == ["Night Shift"])
        // The count comes with the add's answer; the members list is read again after it.
        try await session.tmux.waitForScreen("the group to count and list its member") {
            $0.contains("1 / 1") && $0.contains(first.email)
        }

        // The user's detail pane names the group.
        try session.tmux.send("Tab")
        try await session.tmux.waitFor("Users · name")
        try await waitUntil("the detail pane to name the group") {
            let pane = try session.detailPane()
            return pane.contains(first.name) && pane.contains("Night Shift")
        }

        // `-` takes them out of it again.
        try session.tmux.send("-")
        try await session.tmux.waitFor("Remove \(first.name) from a group")
        try await session.tmux.waitFor("Night Shift")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Removed \(first.name) from Night Shift")
        #expect(try await server.repository.user(id: first.id).groups.isEmpty)
        try await waitUntil("the detail pane to drop the group") { try !session.detailPane().contains("Night Shift") }
    }
}
