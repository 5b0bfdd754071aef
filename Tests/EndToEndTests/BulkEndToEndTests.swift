import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// Marks and bulk runs in the real binaries: marking by hand and suspending, and "all matching"
/// of a search added to a group with the progress line on screen mid-run. An extension of the
/// serialized end-to-end suite.
extension EndToEndTests {
    @Test func markingThreeUsersAndSuspendingThemSuspendsThemOnTheServer() async throws {
        let server = try await ServerProcess(seed: 300)
        defer { server.stop() }
        let firstThree = try await server.repository.listUsers(UserQuery(perPage: 3)).items
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 300")

        try session.tmux.send("Space", "Space", "Space")
        let marked = try await session.tmux.waitForScreen("three marks") { $0.contains("3 marked") && $0.contains("4 / 300") }
        let markedRows = marked.split(separator: "\n").filter { $0.hasPrefix("│*") }
        #expect(markedRows.count == 3, "each marked row shows its mark:\n\(marked)")
        try session.tmux.send("S")
        try await session.tmux.waitFor("Suspend 3 users?")
        try session.tmux.send("y")
        try await session.tmux.waitForScreen("the run to end") { $0.contains("Suspended ") && $0.contains(" in ") && !$0.contains("marked") }
        for user in firstThree {
            #expect(try await server.repository.user(id: user.id).status == .suspended, "\(user.name) is suspended on the server")
        }
    }

    @Test func allMatchingASearchOfTwoHundredUsersGoesIntoAGroupWithProgress() async throws {
        // Each users or groups call takes 40 ms more: slow enough to see the run mid-way.
        let server = try await ServerProcess(seed: 1000, extraArguments: ["--latency", "40"])
        defer { server.stop() }
        let search = "example.net"
        let matching = try await server.repository.listUsers(UserQuery(perPage: 1, search: search)).total
        #expect((150...260).contains(matching), "about 200 users match \(search): \(matching)")
        let group = try await createGroup("Movers", on: server)
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 1,000")

        try session.tmux.send("/")
        try session.tmux.type(search)
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("1 / \(matching) ")
        try session.tmux.type("*")
        try await session.tmux.waitFor("\(matching) marked")
        try session.tmux.send("b")
        try await session.tmux.waitFor("Add to a group")
        try session.tmux.send("g")
        try await session.tmux.waitFor("to the group:")
        try session.tmux.type("movers")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Add \(matching) users to Movers?")
        try session.tmux.send("y")

        let midRun = try await session.tmux.waitForScreen("the progress line mid-run") {
            $0.contains("Adding to Movers") && $0.contains("█") && $0.contains(" / \(matching)") && $0.contains("left")
        }
        #expect(midRun.contains("Esc stop"))
        let finished = "Added \(matching) users to Movers"
        let end = try await session.tmux.waitForScreen("the run's end", timeout: .seconds(120)) {
            $0.contains(finished) || (!$0.contains("Adding to Movers") && !$0.contains("marked"))
        }
        if !end.contains(finished) {
            // The status line lasts 3 s; on a loaded machine the polls can miss it. The journal
            // keeps the run: recent changes (U) must list it whole and done.
            try session.tmux.send("U")
            let changes = try await session.tmux.waitForScreen("the run in recent changes") { $0.contains("Adding to Movers ·") }
            let runRow = changes.split(separator: "\n").first { $0.contains("Adding to Movers ·") } ?? ""
            #expect(runRow.contains("done") && runRow.contains("\(matching) users"), "the run ended whole:\n\(changes)")
        }
        let members = try await server.repository.listUsers(UserQuery(perPage: 1, group: group.id)).total
        #expect(members == matching, "the server has every matching user in the group")
    }

    /// A group made through the API (RosterKit has no group client of its own yet).
    private func createGroup(_ name: String, on server: ServerProcess) async throws -> Group {
        let url = server.url.appendingPathComponent("api/v1/groups")
        let response = try await TestTransport.shared.send(TransportRequest(
            method: .post, url: url,
            headers: ["Authorization": "Bearer \(server.token)", "Content-Type": "application/json"],
            body: Data(#"{"name":"\#(name)"}"#.utf8)))
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        let envelope = try WireFormat.makeDecoder().decode(APIResponse<Group>.self, from: response.body)
        return try #require(envelope.data)
    }
}
