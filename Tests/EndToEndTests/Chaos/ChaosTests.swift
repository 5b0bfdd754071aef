import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// Faults in the real binaries, in a real terminal (tmux): the server killed with SIGKILL and
/// started again on the same database and port while a person scrolls, saves and runs a bulk
/// change; a slow server while keys are pressed; two windows editing one user. Judged by what
/// the screen shows and what the server holds. Serialized, and run on their own by `make test`
/// after every other suite (`make test-chaos` runs them alone): they time keys.
@Suite("Chaos", .serialized, .timeLimit(.minutes(3)))
struct ChaosTests {
    @Test func theServerKilledWhileScrollingThenRestartedAndRLoadsTheRightRows() async throws {
        let server = try await ServerProcess(seed: 2000)
        defer { server.stop() }
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 2,000")
        try session.tmux.send("PageDown", "PageDown")
        try await session.tmux.waitForScreen("scrolled") { !$0.contains("1 / 2,000") }

        server.kill()
        // Into pages that were never loaded: they fail while the server is gone.
        try session.tmux.send("G")
        try await session.tmux.waitFor("2,000 / 2,000")
        try await session.tmux.waitFor("Could not connect to the server", timeout: .seconds(30))
        try session.tmux.send("k", "k")
        try await session.tmux.waitFor("1,998 / 2,000")

        try server.restart()
        try session.tmux.send("r")
        let last = try await server.repository.listUsers(UserQuery(page: 40, perPage: 50)).items
        let screen = try await session.tmux.waitForScreen("the last page's rows") { screen in
            last.suffix(5).allSatisfy { screen.contains($0.email) } && !screen.contains("Could not connect")
        }
        #expect(screen.contains("1,998 / 2,000"), "the selection stayed where the person moved it")
        try await waitUntil("the detail pane to show the selected user") { try session.detailPane().contains(last[47].id) }
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 2000)
    }

    @Test func theServerKilledDuringACreateLosesNothingAndMakesNoDuplicate() async throws {
        // Each users call takes 1.5 s: the create is in flight when the server dies.
        let server = try await ServerProcess(seed: 100, extraArguments: ["--latency", "1500"])
        defer { server.stop() }
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 100")
        try session.tmux.send("n")
        try await session.tmux.waitFor("New user")
        try session.tmux.type("Chaos Create")
        try session.tmux.send("Tab")
        try session.tmux.type("chaos.create@example.org")
        try await session.tmux.waitFor("chaos.create@example.org")
        try session.tmux.send("Enter")
        try await Task.sleep(for: .milliseconds(400))
        server.kill()
        try await Task.sleep(for: .seconds(1))
        try server.restart(extraArguments: [])

        // Either the client's own retries reached the new server, or the person is told and
        // the form still holds what was typed; `r` sends the same create (the same key) again.
        try await finishSaving(session, done: "Created Chaos Create", failure: "Could not create the user")
        let found = try await server.repository.listUsers(UserQuery(search: "chaos.create@example.org"))
        #expect(found.total == 1, "created once")
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 101)
    }

    @Test func theServerKilledDuringAnEditsSaveLosesNothing() async throws {
        let server = try await ServerProcess(seed: 100, extraArguments: ["--latency", "1500"])
        defer { server.stop() }
        let first = try await server.repository.listUsers(UserQuery(perPage: 1)).items[0]
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 100")
        try session.tmux.send("e")
        try await session.tmux.waitFor("Edit ")
        try session.tmux.send("C-u")
        try session.tmux.type("Chaos Edited")
        try await session.tmux.waitFor("Chaos Edited")
        try session.tmux.send("Enter")
        try await Task.sleep(for: .milliseconds(400))
        server.kill()
        // While it is gone, the form says so and keeps the text.
        let told = try await session.tmux.waitFor("Could not save \(first.name)", timeout: .seconds(30))
        #expect(told.contains("Could not connect") || told.contains("connection"), "\(told)")
        try server.restart(extraArguments: [])
        try await finishSaving(session, done: "Saved Chaos Edited", failure: "Could not save \(first.name)")
        let saved = try await server.repository.user(id: first.id)
        #expect(saved.name == "Chaos Edited")
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 100)
    }

    @Test func theServerKilledDuringABulkRunWritesEachUserOnce() async throws {
        let server = try await ServerProcess(seed: 300, extraArguments: ["--latency", "60"])
        defer { server.stop() }
        let before = try await server.repository.listUsers(UserQuery(perPage: 50)).items
        let session = try RosterSession(server: server)
        try await session.suspendFiftyUntilAFifthIsDone()
        server.kill()
        try await Task.sleep(for: .seconds(1))
        try server.restart()

        // The run ends (the client's retries may carry it over the gap); failures are retried
        // with `r` until none is left.
        _ = try await session.finishTheRunRetryingFailures()
        for user in before {
            #expect(try await server.repository.user(id: user.id).status == .suspended, "\(user.name) is suspended")
            let history = try await server.repository.history(ofUser: user.id)
            let writes = history.filter { $0.action == "update" }
            #expect(writes.count <= 1, "\(user.name) written \(writes.count) times")
        }
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 300)
    }

    /// Waits for `done`; each time the failure dialog `failure` shows instead, checks that the
    /// form behind it still holds the text and presses `r`.
    private func finishSaving(_ session: RosterSession, done: String, failure: String) async throws {
        for _ in 0..<5 {
            let screen = try await session.tmux.waitForScreen("“\(done)” or “\(failure)”", timeout: .seconds(40)) {
                $0.contains(done) || $0.contains(failure)
            }
            if screen.contains(done) { return }
            try session.tmux.send("r")
            try await session.tmux.waitForScreen("the retry to start") { !$0.contains(failure) }
        }
        throw EndToEndError("\(done) never came")
    }
}
