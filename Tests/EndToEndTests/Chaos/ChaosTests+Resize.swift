import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// The terminal resized every 50 ms for 5 s, as a person dragging a window corner does.
extension ChaosTests {
    @Test func resizedEvery50msFor5sTheFinalFrameIsAFreshDrawsAtThatSize() async throws {
        let server = try await ServerProcess(seed: 300)
        defer { server.stop() }
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 300")
        try session.tmux.send("j", "j", "j")
        try await session.tmux.waitFor("4 / 300")

        let sizes = [(80, 24), (132, 43), (60, 20), (100, 30), (40, 12), (120, 40), (81, 25), (200, 60), (20, 6), (99, 33)]
        let clock = ContinuousClock()
        let end = clock.now + .seconds(5)
        var resizes = 0
        while clock.now < end {
            let (columns, rows) = sizes[resizes % sizes.count]
            try session.tmux.resize(columns: columns, rows: rows)
            resizes += 1
            try await Task.sleep(for: .milliseconds(50))
        }
        try session.tmux.resize(columns: 100, rows: 30)
        #expect(!(try session.tmux.paneIsDead()), "roster is still running after \(resizes) resizes")

        // The same state drawn fresh at 100×30: the same server, the same selection.
        let fresh = try RosterSession(server: server, columns: 100, rows: 30)
        try await fresh.tmux.waitFor("1 / 300")
        try fresh.tmux.send("j", "j", "j")
        let expected = try await fresh.tmux.waitForScreen("the fresh draw settled") { $0.contains("4 / 300") && $0.contains("● connected") }
        var last = ""
        do {
            try await waitUntil(within: .seconds(10), "the resized frame to equal a fresh draw") {
                last = try session.tmux.screen()
                return last == (try fresh.tmux.screen())
            }
        } catch {
            Issue.record("after \(resizes) resizes the frame differs from a fresh draw at 100×30:\n--- resized ---\n\(last)\n--- fresh ---\n\(expected)")
        }
        print("resized \(resizes) times in 5 s; final frame equals a fresh draw at 100x30")
    }
}
