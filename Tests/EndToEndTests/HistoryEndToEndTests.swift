import Foundation
import Logging
import RosterKit
import RosterKitTestSupport
import Testing

/// A user's history with the real binaries in tmux: a named token edits a user twice and puts
/// them in a group, and `h` in Roster shows the three changes with the token's name. Part of the serialized end-to-end suite.
extension EndToEndTests {
    @Test func hShowsAUsersChangesAndGroupsWithTheTokensName() async throws {
        let server = try await ServerProcess(seed: 3)
        defer { server.stop() }
        let secret = try Self.createToken(named: "night-editor", scopes: "read,write", database: server.directory.appendingPathComponent("users.sqlite").path)
        let editor = RosterAPIDirectory(client: APIClient(
            baseURL: server.url, token: secret, transport: TestTransport.shared, retryPolicy: .never,
            logger: Logger(label: "e2e.client") { _ in SwiftLogNoOpLogHandler() }))
        let first = try #require(try await server.repository.listUsers(UserQuery(perPage: 1)).items.first)
        _ = try await editor.updateUser(id: first.id, with: UserDraft(name: "Aaa Renamed", email: first.email, role: first.role, status: first.status))
        _ = try await editor.updateUser(id: first.id, with: UserDraft(name: "Aaa Renamed", email: first.email, role: first.role, status: .suspended))
        // A membership change is the user's history too, not only the group's.
        let group = try await editor.createGroup(GroupDraft(name: "Night shift"), idempotencyKey: UUID().uuidString)
        _ = try await editor.changeMembers(of: group.id, MembershipChange(add: [first.id], remove: []))

        let session = try RosterSession(server: server, columns: 160)
        try await session.tmux.waitFor("1 / 3")
        // "Aaa" sorts first, so the renamed user is the one selected at start.
        try await waitUntil("the detail pane to show the renamed user") { try session.detailPane().contains("Aaa Renamed") }
        // `h` waits for the list to be idle and the server's traits to be known (it is ignored
        // before); on the loaded machine the first may come too early, so it is sent again
        // while no history has appeared.
        var lastH = ContinuousClock.now - .seconds(10)
        try await waitUntil("the history with both changes") {
            let pane = try session.detailPane()
            if !pane.contains("night-editor"), ContinuousClock.now - lastH > .seconds(3) {
                try session.tmux.send("h")
                lastH = .now
            }
            return pane.contains("night-editor") && pane.contains("status “active” → “suspended”")
                && pane.contains("→ “Aaa Renamed”") && pane.contains("member_of — → “Night shift”")
        }
        let pane = try session.detailPane()
        #expect(pane.components(separatedBy: "night-editor").count - 1 == 3, "\(pane)")
        #expect(pane.contains("3 changes, newest first"), "\(pane)")
        try session.tmux.send("h")
        try await waitUntil("the record again") { try !session.detailPane().contains("night-editor") }
    }

    /// `roster-server token create`, as an administrator runs it; returns the secret it printed.
    static func createToken(named name: String, scopes: String, database: String) throws -> String {
        let process = Process()
        process.executableURL = try BuiltProducts.url(of: "roster-server")
        process.arguments = ["token", "create", name, "--scope", scopes, "--database", database]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("token: ") })
        else { throw EndToEndError("roster-server token create failed: \(text)") }
        return String(line.dropFirst("token: ".count))
    }
}
