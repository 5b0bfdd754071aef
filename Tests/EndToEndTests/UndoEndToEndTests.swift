import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// The journal across a crash, in the real binaries: a bulk suspend of 50 users, roster killed
/// with SIGKILL mid-run, restarted on the same state folder: the interrupted run is offered,
/// undone, and the server has all 50 as they were. An extension of the serialized suite.
extension EndToEndTests {
    @Test func aBulkSuspendKilledMidRunIsOfferedAtTheNextStartAndUndone() async throws {
        // Each call takes 60 ms more: the run of 50 lasts long enough to be killed mid-way.
        let server = try await ServerProcess(seed: 300, extraArguments: ["--latency", "60"])
        defer { server.stop() }
        let before = try await server.repository.listUsers(UserQuery(perPage: 50)).items
        #expect(before.count == 50)
        let session = try RosterSession(server: server)
        try await session.suspendFiftyUntilAFifthIsDone()
        let roster = try Self.rosterProcess(under: session.tmux.panePID())
        #expect(kill(roster, SIGKILL) == 0)
        _ = try await session.tmux.waitForScreen("roster gone") { _ in (try? session.tmux.paneIsDead()) == true }

        var suspended = 0
        for user in before where try await server.repository.user(id: user.id).status == .suspended { suspended += 1 }
        let wereSuspended = before.filter { $0.status == .suspended }.count
        #expect(suspended > wereSuspended && suspended < 50, "killed mid-run: \(suspended) of 50 suspended")

        let again = try RosterSession(server: server)
        let offer = try await again.tmux.waitFor("A run was interrupted")
        #expect(offer.contains("Suspending 50 users was interrupted"), "\(offer)")
        try again.tmux.send("u")
        try await again.tmux.waitFor("Set back")
        try again.tmux.send("y")
        try await again.tmux.waitForScreen("the undo's summary") { $0.contains("Set back ") && $0.contains("Esc  Back") }
        for user in before {
            let now = try await server.repository.user(id: user.id)
            #expect(now.status == user.status && now.name == user.name && now.role == user.role, "\(user.id) is as it was")
        }
    }

    /// roster itself: the pane's process, or its child when the shell did not exec it.
    static func rosterProcess(under pid: Int32) throws -> Int32 {
        func name(_ pid: Int32) -> String {
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        }
        if name(pid) == "roster" { return pid }
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) where name(child) == "roster" { return child }
        throw EndToEndError("no roster process under \(pid)")
    }
}
