import Foundation
import RosterKit
import RosterKitTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `roster` binary against a real `roster-server`, in a real terminal (tmux), driven
/// by keys and judged by what the screen shows. Serialized: each scenario runs two processes
/// and a terminal, and the machine has two cores.
@Suite("End to end", .serialized, .timeLimit(.minutes(2)))
struct EndToEndTests {
    @Test func browsingFollowsTheSelectionToTheEndAndBack() async throws {
        let server = try await ServerProcess(seed: 2000)
        defer { server.stop() }
        let firstPage = try await server.repository.listUsers(UserQuery(perPage: 10))
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 2,000")

        for _ in 0..<5 { try session.tmux.send("j") }
        try await session.tmux.waitFor("6 / 2,000")
        let sixth = firstPage.items[5]
        try await waitUntil("the detail pane to show \(sixth.email)") {
            let pane = try session.detailPane()
            return pane.contains(sixth.name) && pane.contains(sixth.id)
        }

        try session.tmux.send("G")
        try await session.tmux.waitFor("2,000 / 2,000")
        let last = try await server.repository.listUsers(UserQuery(page: 40, perPage: 50)).items.last!
        try await waitUntil("the detail pane to show the last user, \(last.email)") {
            try session.detailPane().contains(last.id)
        }

        try session.tmux.send("g")
        try await session.tmux.waitFor("1 / 2,000")
        let first = firstPage.items[0]
        try await waitUntil("the detail pane to show the first user again") { try session.detailPane().contains(first.id) }
    }

    @Test func aServerThatNeverAcceptsShowsTheErrorDialogWithinTheRequestTimeout() async throws {
        // The TCP handshake never completes: the listener's accept queue is full.
        let listener = try LoopbackListener(backlog: 0, accepting: false)
        let fillers = try listener.fillAcceptQueue()
        defer { fillers.forEach { close($0) }; listener.close() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try RosterSession(url: listener.url, token: "some-token", directory: directory,
                                        settings: #"{ "requestTimeoutSeconds": 3 }"#)
        // Timed from roster's first frame: starting tmux and a debug binary on a loaded machine
        // is not the request's time.
        _ = try await session.tmux.waitForScreen("roster's first frame", timeout: .seconds(10)) {
            !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        let started = ContinuousClock.now
        let title = try await session.tmux.waitFor("Could not load the users", timeout: .seconds(10))
        let elapsed = ContinuousClock.now - started
        // A capture can fall in the middle of the frame's output: read the finished dialog.
        let screen = title.contains("Retry    Esc  Close") ? title
            : try await session.tmux.waitForScreen("the whole dialog") { $0.contains("Retry    Esc  Close") }
        #expect(elapsed < .seconds(5), "the dialog came \(elapsed) after the first frame")
        #expect(screen.contains("The server did not answer in time."))
        #expect(screen.contains("Retry    Esc  Close"))
        try session.tmux.send("q")
        let log = try String(contentsOf: directory.appendingPathComponent("state/roster/roster.log"), encoding: .utf8)
        #expect(!log.contains("some-token"), "the token never reaches the log file")
    }

    @Test func managingTheUsersOfASCIMService() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        try await peer.seed(300, bulk: true)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try RosterSession(url: peer.url, token: SCIMPeer.token, directory: directory, arguments: ["--api", "scim"])
        // The header names the dialect once the first load has told which it is (just after the
        // rows; on a busy machine a capture can fall in between).
        let first = try await session.tmux.waitForScreen("the list and the dialect") { $0.contains("1 / 300") && $0.contains("SCIM 2.0") }
        #expect(first.contains("Seeded User 0001"))

        // Search: the service filters (userName, displayName or emails containing the text).
        try session.tmux.send("/")
        try session.tmux.type("user-012")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("1 / 10 ")
        try session.tmux.send("Escape")
        try await session.tmux.waitFor("1 / 300")

        // Create through the form; userName defaults to the email.
        try session.tmux.send("n")
        try await session.tmux.waitFor("New user")
        try session.tmux.type("Ana Silva")
        try session.tmux.send("Tab")
        try session.tmux.type("ana.silva@example.com")
        // The service keys users on userName: the form asks for it, filled from the email.
        // (Waits for the typing to land: the Username line is there from the start.)
        try await session.tmux.waitForScreen("the username to follow the email") { screen in
            screen.split(separator: "\n").contains { $0.contains("Username") && $0.contains("ana.silva@example.com") }
        }
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Created Ana Silva")
        let users = SCIMDirectory(client: peer.client())
        let created = try #require(try await users.listUsers(UserQuery(search: "ana.silva@example.com")).items.first)
        #expect(created.scim?.userName == "ana.silva@example.com")

        // Edit the new user once the list has reloaded and selected it (first by name).
        try await session.tmux.waitFor("1 / 301")
        try session.tmux.send("e")
        try await session.tmux.waitFor("Edit Ana Silva")
        try session.tmux.send("C-u")
        try session.tmux.type("Ana Silva Costa")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Saved Ana Silva Costa")
        #expect(try await peer.raw(id: created.id)[attribute: "displayName"] == .string("Ana Silva Costa"))

        // Suspend with one key.
        try session.tmux.send("S")
        try await session.tmux.waitFor("Suspended Ana Silva Costa")
        #expect(try await peer.raw(id: created.id)[attribute: "active"] == .bool(false))

        // The service goes away: the error dialog; it comes back: r loads again.
        let port = peer.url.port ?? 0
        peer.stop()
        try session.tmux.send("R")
        try await session.tmux.waitFor("Could not refresh the list")
        let again = try SCIMPeer(port: port)
        defer { again.stop() }
        try await again.seed(300, bulk: true)
        try session.tmux.send("r")
        try await session.tmux.waitFor("1 / 300")
    }

    @Test func searchNarrowsTheList() async throws {
        let server = try await ServerProcess(seed: 2000)
        defer { server.stop() }
        let matches = try await server.repository.listUsers(UserQuery(perPage: 200, search: "ana"))
        #expect(matches.total > 0 && matches.total < 2000)
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 2,000")

        try session.tmux.send("/")
        try await session.tmux.waitFor("Search:")
        try session.tmux.type("ana")
        try session.tmux.send("Enter")
        let screen = try await session.tmux.waitFor("1 / \(String.grouped(matches.total)) ")
        #expect(screen.contains("“ana”"))
        #expect(screen.contains("\(String.grouped(matches.total)) users"))
        // The first rows are the server's first matches, in order.
        for user in matches.items.prefix(3) { #expect(screen.contains(user.email) || screen.contains(String(user.email.prefix(20)))) }
    }

    @Test func creatingAUserThroughTheForm() async throws {
        let server = try await ServerProcess(seed: 100)
        defer { server.stop() }
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 100")

        try session.tmux.send("n")
        try await session.tmux.waitFor("New user")
        try session.tmux.type("Zoë Þórsdóttir")
        try session.tmux.send("Tab")
        try session.tmux.type("zoe.thorsdottir@example.is")
        try session.tmux.send("Tab", "Right")   // role: member → viewer
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Created Zoë Þórsdóttir")
        try await session.tmux.waitFor("101 users")

        let found = try await server.repository.listUsers(UserQuery(search: "zoe.thorsdottir@example.is"))
        #expect(found.total == 1)
        #expect(found.items.first?.name == "Zoë Þórsdóttir")
        #expect(found.items.first?.role == .viewer)

        // And the list shows the new user.
        try session.tmux.send("/")
        try session.tmux.type("thorsdottir")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("zoe.thorsdottir@example.is")
    }

    @Test func aTakenEmailShowsTheServersMessageUnderEmailAndKeepsWhatWasTyped() async throws {
        let server = try await ServerProcess(seed: 100)
        defer { server.stop() }
        let taken = try await server.repository.listUsers(UserQuery(perPage: 1)).items[0].email
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 100")

        try session.tmux.send("n")
        try await session.tmux.waitFor("New user")
        try session.tmux.type("Ana Lima")
        try session.tmux.send("Tab")
        try session.tmux.type(taken)
        try session.tmux.send("Enter")
        let screen = try await session.tmux.waitFor("This email is already taken.")
        let lines = screen.split(separator: "\n").map(String.init)
        let errorLine = try #require(lines.firstIndex { $0.contains("This email is already taken.") })
        #expect(lines[errorLine - 1].contains("Email"), "the message sits under the Email field")
        #expect(lines[errorLine - 1].contains(taken), "what was typed is kept")
        #expect(screen.contains("Ana Lima"))
        #expect(try await server.repository.listUsers(UserQuery()).total == 100, "nothing was created")
    }

    @Test func aFailingServerShowsTheErrorDialogAndRRetries() async throws {
        // The client tries three times, so three failures exhaust the first load.
        let server = try await ServerProcess(seed: 100, extraArguments: ["--fail-first", "3"])
        defer { server.stop() }
        let session = try RosterSession(server: server)
        let screen = try await session.tmux.waitFor("Could not load the users")
        #expect(screen.contains("unavailable"))
        #expect(screen.contains(" r  Retry"))
        try session.tmux.send("r")
        let loaded = try await session.tmux.waitFor("1 / 100")
        #expect(!loaded.contains("Could not load the users"))
    }

    @Test func editingAndDeletingWithConfirmation() async throws {
        let server = try await ServerProcess(seed: 100)
        defer { server.stop() }
        let second = try await server.repository.listUsers(UserQuery(perPage: 2)).items[1]
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 100")

        try session.tmux.send("j")
        try await session.tmux.waitFor("2 / 100")
        try session.tmux.send("e")
        try await session.tmux.waitFor("Edit ")
        try session.tmux.send("C-u")
        try session.tmux.type("Renamed Person")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Saved Renamed Person")
        #expect(try await server.repository.user(id: second.id).name == "Renamed Person")

        // Find them again and delete, answering the confirmation.
        try session.tmux.send("/")
        try session.tmux.type("Renamed Person")
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("1 / 1 ")
        try session.tmux.send("d")
        try await session.tmux.waitFor("Delete user")
        try session.tmux.send("n")
        try await session.tmux.waitForScreen("the confirmation to close") { !$0.contains("Delete user") }
        #expect(try await server.repository.user(id: second.id).id == second.id, "n keeps the user")
        try session.tmux.send("d")
        try await session.tmux.waitFor("Delete user")
        try session.tmux.send("y")
        try await session.tmux.waitFor("Deleted Renamed Person")
        await #expect(throws: APIError.self) { try await server.repository.user(id: second.id) }
    }

    @Test func resizingTo80x24PutsTheDetailPaneBelowTheList() async throws {
        let server = try await ServerProcess(seed: 100)
        defer { server.stop() }
        let session = try RosterSession(server: server)
        let wide = try await session.tmux.waitFor("1 / 100")
        #expect(wide.split(separator: "\n").contains { $0.contains("┐┌─ Details") }, "beside the list at 120 columns")

        try session.tmux.resize(columns: 80, rows: 24)
        let narrow = try await session.tmux.waitForScreen("the detail pane below the list") { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("┌─ Details") }
        }
        let lines = narrow.split(separator: "\n", omittingEmptySubsequences: false).dropLast()  // capture ends with a newline
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(narrow.contains("1 / 100"))
    }

    @Test func quittingRestoresTheTerminal() async throws {
        let server = try await ServerProcess(seed: 10)
        defer { server.stop() }
        let folder = server.directory.path
        let roster = try BuiltProducts.url(of: "roster").path
        let script = """
            stty -g > \(folder)/stty.before
            \(TmuxSession.shellQuote(roster)) --server \(server.url.absoluteString) --token \(server.token)
            echo "exit=$?"
            stty -g > \(folder)/stty.after
            echo SHELL-IS-BACK
            sleep 600
            """
        let tmux = try TmuxSession(command: script, environment: ["XDG_STATE_HOME": folder + "/state", "LANG": "C.UTF-8"])
        try await tmux.waitFor("1 / 10")
        try tmux.send("q")
        let screen = try await tmux.waitFor("SHELL-IS-BACK")
        #expect(screen.contains("exit=0"))
        #expect(!screen.contains("Roster"), "the app's screen is gone (alternate screen left)")
        let before = try String(contentsOfFile: folder + "/stty.before", encoding: .utf8)
        let after = try String(contentsOfFile: folder + "/stty.after", encoding: .utf8)
        #expect(before == after)
    }
}
