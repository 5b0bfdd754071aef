import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// Two Roster windows on one user, and a slow server under a person's keys.
extension ChaosTests {
    @Test func twoWindowsEditingOneUserTheSecondSaveIsToldNotWrittenOver() async throws {
        let server = try await ServerProcess(seed: 100)
        defer { server.stop() }
        let first = try await server.repository.listUsers(UserQuery(perPage: 1)).items[0]
        let one = try RosterSession(server: server)
        let two = try RosterSession(url: server.url, token: server.token, directory: server.directory.appendingPathComponent("two"))
        try await one.tmux.waitFor("1 / 100")
        try await two.tmux.waitFor("1 / 100")

        // Both open the same user's form; the first saves.
        try two.tmux.send("e")
        try await two.tmux.waitFor("Edit \(first.name)")
        try one.tmux.send("e")
        try await one.tmux.waitFor("Edit \(first.name)")
        try one.tmux.send("C-u")
        try one.tmux.type("Name From One")
        try await one.tmux.waitFor("Name From One")
        try one.tmux.send("Enter")
        try await one.tmux.waitFor("Saved Name From One")

        // The second window's save is refused and told, with what changed.
        try two.tmux.send("C-u")
        try two.tmux.type("Name From Two")
        try await two.tmux.waitFor("Name From Two")
        try two.tmux.send("Enter")
        let told = try await two.tmux.waitFor("Someone changed \(first.name)")
        #expect(told.contains("Name From One"), "the dialog names the other change:\n\(told)")
        #expect(try await server.repository.user(id: first.id).name == "Name From One", "nothing written over")

        // Applying the edits on the server's version saves them, knowingly.
        try two.tmux.send("y")
        try await two.tmux.waitFor("Saved Name From Two")
        #expect(try await server.repository.user(id: first.id).name == "Name From Two")
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 100)
    }

    @Test func aSlowServerNeverDelaysAKey() async throws {
        // Every users call takes 2 s; a key must still change the screen at once.
        let server = try await ServerProcess(seed: 2000, extraArguments: ["--latency", "2000"])
        defer { server.stop() }
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 2,000", timeout: .seconds(30))

        var timings: [(key: String, elapsed: Duration)] = []
        func press(_ key: String, literal: Bool = false) async throws {
            let before = try session.tmux.screen()
            let started = ContinuousClock.now
            if literal { try session.tmux.type(key) } else { try session.tmux.send(key) }
            try await session.tmux.waitForScreen("the screen to answer \(key)", timeout: .seconds(5), poll: .milliseconds(5)) { $0 != before }
            timings.append((key, ContinuousClock.now - started))
        }
        // Moves within the loaded page, pages past it (loads start, 2 s each), a search typed
        // while those are in flight, the form opened and typed into, all while calls are pending.
        for _ in 0..<5 { try await press("j") }
        for _ in 0..<4 { try await press("PageDown") }
        try await press("/")
        for letter in ["a", "n", "a"] { try await press(letter, literal: true) }
        try await press("Enter")
        try await press("j")
        try await press("Escape")
        try await press("G")
        try await press("n")
        for letter in ["Z", "o", "e"] { try await press(letter, literal: true) }
        try await press("Escape")

        let sorted = timings.map(\.elapsed).sorted()
        let median = sorted[sorted.count / 2]
        let slowest = try #require(sorted.last)
        print("key to screen with the server at 2 s a call: \(timings.count) keys, median \(median), slowest \(slowest)")
        for timing in timings where timing.elapsed >= .milliseconds(300) {
            Issue.record("\(timing.key) took \(timing.elapsed) to change the screen")
        }
    }
}
