import Foundation
import RosterKit
import RosterKitTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Filters, the clipboard and drafts kept on quit: the real binaries in tmux. An extension of
/// the serialized end-to-end suite, so these never run beside its other scenarios.
extension EndToEndTests {
    @Test func filteringByStatusShowsOnlyThoseUsersAndTheServersCount() async throws {
        let server = try await ServerProcess(seed: 300)
        defer { server.stop() }
        let suspended = try await server.repository.listUsers(UserQuery(perPage: 20, status: .suspended))
        let invited = try await server.repository.listUsers(UserQuery(perPage: 20, status: .invited))
        #expect(suspended.total > 0 && suspended.total < 300)
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 300")

        try session.tmux.send("t", "t") // every user → active → suspended
        let screen = try await session.tmux.waitForSettled("1 / \(String.grouped(suspended.total)) ")
        #expect(screen.contains("status suspended"), "the list's title names the filter:\n\(screen)")
        #expect(screen.contains("\(String.grouped(suspended.total)) users"))
        // The list's own rows (left of the detail pane): each a suspended user, in the server's order.
        let rows = screen.split(separator: "\n").map { line in line.range(of: "││").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .filter { $0.contains("@") }
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.contains("suspended") }, "\(rows.joined(separator: "\n"))")
        for user in suspended.items.prefix(3) { #expect(screen.contains(String(user.email.prefix(20)))) }

        // The filter line, with the search: the server answers both together.
        try session.tmux.send("f")
        try await session.tmux.waitFor("Filter: status:suspended")
        try session.tmux.send("C-u")
        try session.tmux.type("status:invited")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("1 / \(String.grouped(invited.total)) ")
        let first = try #require(invited.items.first)
        let needle = String(first.email.prefix(while: { $0 != "@" }))
        let both = try await server.repository.listUsers(UserQuery(search: needle, status: .invited))
        try session.tmux.send("/")
        try session.tmux.type(needle)
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("1 / \(String.grouped(both.total)) ")

        // F clears the filters; the search stays.
        try session.tmux.send("Escape", "F")
        try await session.tmux.waitFor("1 / 300")
    }

    @Test func yCopiesTheEmailWithOSC52IntoTmuxsBuffer() async throws {
        let server = try await ServerProcess(seed: 20)
        defer { server.stop() }
        let second = try await server.repository.listUsers(UserQuery(perPage: 2)).items[1]
        let session = try RosterSession(server: server)
        // tmux takes an application's OSC 52 into a paste buffer only with set-clipboard on.
        try session.tmux.setServerOption("set-clipboard", "on")
        try await session.tmux.waitFor("1 / 20")
        #expect(session.tmux.newestBuffer() == nil)

        try session.tmux.send("j")
        try await session.tmux.waitFor("2 / 20")
        try session.tmux.send("y")
        try await session.tmux.waitFor("Copied \(second.email)")
        try await waitUntil("tmux's buffer to hold \(second.email)") { session.tmux.newestBuffer() == second.email }
    }

    @Test func ctrlCOnAChangedFormAsksAndSIGTERMKeepsTheDraftForTheNextStart() async throws {
        let server = try await ServerProcess(seed: 10)
        defer { server.stop() }
        let draftFile = server.directory.appendingPathComponent("state/roster/draft.json")
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 10")

        try session.tmux.send("n")
        try await session.tmux.waitFor("New user")
        try session.tmux.type("Zoë Draft")
        try session.tmux.send("C-c")
        let asked = try await session.tmux.waitFor("Quit without saving?")
        #expect(asked.contains("Keep editing"))
        try session.tmux.send("n")
        try await session.tmux.waitForScreen("the question to close") { !$0.contains("Quit without saving?") && $0.contains("Zoë Draft") }
        #expect(try !session.tmux.paneIsDead())

        // Told to stop from outside: no question can be answered, so the draft is kept.
        let roster = try rosterPID(in: session.tmux)
        kill(roster, SIGTERM)
        try await waitUntil("roster to stop") { try session.tmux.paneIsDead() }
        let saved = try String(contentsOf: draftFile, encoding: .utf8)
        #expect(saved.contains("Zoë Draft"))

        // The next start offers it back.
        let next = try RosterSession(server: server)
        try await next.tmux.waitFor("Restore the unsaved draft of the new user Zoë Draft?")
        try next.tmux.send("y")
        let form = try await next.tmux.waitFor("New user")
        #expect(form.contains("Zoë Draft"))
        #expect(!FileManager.default.fileExists(atPath: draftFile.path), "answered: the file is gone")
        try next.tmux.send("Tab")
        try next.tmux.type("zoe.draft@example.com")
        try next.tmux.send("Enter")
        try await next.tmux.waitFor("Created Zoë Draft")
        #expect(try await server.repository.listUsers(UserQuery(search: "zoe.draft@example.com")).total == 1)
    }

    /// The roster process in the pane: the pane's shell's child (or the shell, once exec'd).
    private func rosterPID(in tmux: TmuxSession) throws -> Int32 {
        let shell = try tmux.panePID()
        func name(_ pid: Int32) -> String {
            ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if name(shell) == "roster" { return shell }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        guard let child = children.split(separator: " ").compactMap({ Int32($0) }).first(where: { name($0) == "roster" }) else {
            throw EndToEndError("no roster process under the pane's shell \(shell)")
        }
        return child
    }
}
