import Foundation
import RosterKitTestSupport
import Testing

/// Two profiles, the embedded server and PyPI's scim2-server, in one run of the real `roster`:
/// search and move on the first, switch to the second with the `C` picker, switch back, and
/// find the first's search and selection where they were; the header names each connection.
/// An extension of the serialized end-to-end suite.
extension EndToEndTests {
    @Test func thePickerSwitchesConnectionsAndEachKeepsItsPlace() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        for name in ["Ada Lovelace", "Grace Hopper", "Edsger Dijkstra"] {
            let login = name.lowercased().replacingOccurrences(of: " ", with: ".")
            _ = try await peer.post(#"""
                {"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"\#(login)",
                 "name":{"formatted":"\#(name)"},"displayName":"\#(name)",
                 "emails":[{"value":"\#(login)@example.com","primary":true}],"active":true}
                """#)
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("roster-picker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config/roster")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
            {
              // Opened at start.
              default: "local",
              connections: {
                local: { color: "blue", embedded: { seedUsers: 20, database: "\(home.path)/data/picker.sqlite" } },
                peer: { color: "red", server: "\(peer.url.absoluteString)", api: "scim", token: "\(SCIMPeer.token)" },
              },
            }
            """.write(to: config.appendingPathComponent("roster.json"), atomically: true, encoding: .utf8)
        let roster = try BuiltProducts.url(of: "roster").path
        let tmux = try TmuxSession(command: TmuxSession.shellQuote(roster), environment: [
            "HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state",
            "XDG_CONFIG_HOME": home.path + "/config", "LANG": "C.UTF-8",
        ])
        defer { tmux.kill() }
        let start = try await tmux.waitFor("1 / 20")
        #expect(start.split(separator: "\n").first?.contains("local · embedded") == true, "\(start)")

        // A search, and the third of its matches selected once the search's page has landed
        // (keys before it would move in the old list, which the search's answer replaces).
        try tmux.send("/")
        try tmux.type("a")
        try tmux.send("Enter")
        try await tmux.waitForScreen("the search's answer") { $0.contains("“a”") && !showsSpinner($0) }
        try await Task.sleep(for: .milliseconds(300))
        try await tmux.waitForScreen("still settled") { !showsSpinner($0) }
        try tmux.send("j")
        try tmux.send("j")
        let before = try await tmux.waitForScreen("the third match selected and its details") {
            $0.contains("“a”") && position(in: $0)?.hasPrefix("3 / ") == true && !showsSpinner($0)
        }
        let place = try #require(position(in: before))
        // The detail pane follows the selection once it rests, then shows the fetched record.
        try await Task.sleep(for: .seconds(1))
        let selected = try detailPane(tmux.screen())
        #expect(!selected.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)

        try tmux.send("C")
        let picker = try await tmux.waitForScreen("the picker with both statuses") {
            $0.contains("Connections") && $0.contains("SCIM 2.0 · 3 users") && $0.contains("Roster API · 20 users")
        }
        #expect(picker.contains("● local"))
        try tmux.send("Down")
        try tmux.send("Enter")
        let onPeer = try await tmux.waitForScreen("the SCIM service's users") { $0.contains("1 / 3") && $0.contains("Grace Hopper") }
        #expect(onPeer.split(separator: "\n").first?.contains("peer · ") == true, "\(onPeer)")
        #expect(!onPeer.contains("“a”"))

        try tmux.send("C")
        try await tmux.waitFor("● peer")
        try tmux.send("Up")
        try tmux.send("Enter")
        let back = try await tmux.waitForScreen("the first connection again") {
            $0.contains("local · embedded") && $0.contains("“a”") && !showsSpinner($0)
        }
        #expect(position(in: back) == place, "\(place) in \(back)")
        try await tmux.waitForScreen("the same user in the detail pane") { detailPane($0) == selected }

        try tmux.send("q")
        try await waitUntil("roster quits") { try tmux.paneIsDead() }
    }
}

/// The list's "N / TOTAL" in its title.
private func position(in screen: String) -> String? {
    guard let title = screen.split(separator: "\n").first(where: { $0.contains("Users ·") }),
          let match = title.firstMatch(of: /(\d[\d,]*) \/ (\d[\d,]*)/) else { return nil }
    return String(match.output.0)
}

/// The app's spinner (braille frames): a load or a detail fetch is in flight.
private func showsSpinner(_ screen: String) -> Bool {
    screen.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }
}

/// What is right of the list's border on each line: the detail pane on a wide terminal.
private func detailPane(_ screen: String) -> String {
    screen.split(separator: "\n").compactMap { line in
        line.range(of: "││").map { String(line[$0.upperBound...]) }
    }.joined(separator: "\n")
}
