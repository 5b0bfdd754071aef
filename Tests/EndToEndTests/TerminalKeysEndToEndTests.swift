import Foundation
import RosterKitTestSupport
import Testing

/// The keys as terminals really send them, written as raw bytes into a real pty (tmux's pane),
/// to `roster` told TERM=xterm-256color, whose terminfo entry knows only one form of each:
/// every variant must do what its key does (KeySequences), and none may reach a field as text.
@Suite("Terminal keys end to end", .serialized, .timeLimit(.minutes(3)))
struct TerminalKeysEndToEndTests {
    static let escape = "\u{1B}"

    @Test func everyFormOfTheMovingKeysMovesTheSelection() async throws {
        let server = try await ServerProcess(seed: 200)
        defer { server.stop() }
        let session = try RosterSession(server: server, environment: ["TERM": "xterm-256color"])
        let tmux = session.tmux
        try await tmux.waitFor("1 / 200")

        // Down, in the forms of xterm (normal and application mode), VT100, with modifiers, rxvt.
        let downs = ["[B", "OB", "[1;5B", "[1;2B", "O5B", "[b", "Ob"]
        for (index, down) in downs.enumerated() {
            try tmux.sendBytes(Self.escape + down)
            try await tmux.waitFor("\(index + 2) / 200")
        }
        let ups = ["[A", "OA", "[1;5A", "[1;3A", "[a", "Oa"]
        for (index, up) in ups.enumerated() {
            try tmux.sendBytes(Self.escape + up)
            try await tmux.waitFor("\(downs.count - index) / 200")
        }
        try await tmux.waitFor("2 / 200")

        // End: tmux and the linux console, rxvt, xterm's normal and application modes, modified.
        for end in ["[4~", "[8~", "[F", "OF", "[1;5F", "[4;2~", "[8^"] {
            try tmux.send("g")
            try await tmux.waitFor("1 / 200")
            try tmux.sendBytes(Self.escape + end)
            try await tmux.waitFor("200 / 200", timeout: .seconds(10))
        }
        for home in ["[1~", "[7~", "[H", "OH", "[1;5H", "[7$"] {
            try tmux.send("G")
            try await tmux.waitFor("200 / 200")
            try tmux.sendBytes(Self.escape + home)
            try await tmux.waitFor("1 / 200 ", timeout: .seconds(10))
        }

        // Page Down and Up, plain and modified: away from the top and back to it.
        for (down, up) in [("[6~", "[5~"), ("[6;5~", "[5;5~"), ("[6^", "[5^")] {
            try tmux.sendBytes(Self.escape + down)
            try await tmux.waitForScreen("Page Down (\(down.debugDescription)) to leave the first row") { screen in
                screen.contains(" / 200") && !screen.contains("1 / 200 ")
            }
            try tmux.sendBytes(Self.escape + up)
            try await tmux.waitFor("1 / 200 ", timeout: .seconds(10))
        }
        #expect(!(try tmux.screen()).contains("~"), "no sequence was taken for text")
    }

    @Test func everyFormOfTheEditingKeysEditsTheSearchLine() async throws {
        let server = try await ServerProcess(seed: 20)
        defer { server.stop() }
        let session = try RosterSession(server: server, environment: ["TERM": "xterm-256color"])
        let tmux = session.tmux
        try await tmux.waitFor("1 / 20")
        try tmux.send("/")
        try await tmux.waitFor("Search:")
        try tmux.type("abcd")
        try await tmux.waitFor("abcd")

        // Each step: the bytes, then a character typed where the cursor is, then the line.
        let steps: [(keys: [String], typed: String, line: String)] = [
            (["[D", "OD", "[3~", "[2~"], "1", "ab1d"),      // Left twice, Delete, Insert does nothing
            (["[H"], "2", "2ab1d"),                         // Home (xterm normal mode)
            (["[4~"], "3", "2ab1d3"),                       // End (tmux)
            (["[1~", "[1;5C"], "4", "24ab1d3"),              // Home (VT220), Ctrl-Right
            (["[8~", "OD", "[3;2~", "OF"], "5", "24ab1d5"), // End (rxvt), Left, Shift-Delete, End (SS3)
            (["[7~", "[3$"], "6", "64ab1d5"),               // Home (rxvt), Shift-Delete (rxvt)
            (["OH", "[C", "OC", "[1;3D"], "7", "674ab1d5"),  // Home (SS3), Right twice, Alt-Left
            (["[F"], "8", "674ab1d58"),                     // End (xterm normal mode)
        ]
        for step in steps {
            for key in step.keys { try tmux.sendBytes(Self.escape + key) }
            try tmux.type(step.typed)
            try await tmux.waitForScreen("the search line to read “\(step.line)”", timeout: .seconds(10)) { screen in
                screen.split(separator: "\n").contains { line in
                    line.range(of: " Search: ").map { line[$0.upperBound...].trimmingCharacters(in: .whitespaces) } == step.line
                }
            }
        }
        try tmux.send("Escape")
        try await tmux.waitFor("1 / 20 ")
    }

    @Test(arguments: [("dumb", "TERM=dumb cannot"), ("no-such-terminal", "TERM=no-such-terminal is not in terminfo")])
    func aTerminalThatCannotMoveTheCursorIsToldInOneLineAndLeftAsItWas(term: String, message: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-term-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let roster = try BuiltProducts.url(of: "roster").path
        let quoted = { (path: String) in TmuxSession.shellQuote(folder.appendingPathComponent(path).path) }
        // No server answers on port 9: the terminal is judged before any connection is made.
        let command = "stty -g > \(quoted("before")); TERM=\(term) \(TmuxSession.shellQuote(roster)) --server http://127.0.0.1:9 --token t"
            + " 2> \(quoted("stderr")); echo $? > \(quoted("status")); stty -g > \(quoted("after"))"
        let tmux = try TmuxSession(columns: 200, rows: 10, command: command, environment: [
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path, "LANG": "C.UTF-8",
        ])
        defer { tmux.kill() }
        let statusFile = folder.appendingPathComponent("status")
        try await waitUntil(within: .seconds(20), "roster to exit") {
            (try? String(contentsOf: statusFile, encoding: .utf8))?.hasSuffix("\n") == true
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path)
        }
        try await waitUntil(within: .seconds(5), "stty to write the modes after") {
            ((try? String(contentsOf: folder.appendingPathComponent("after"), encoding: .utf8)) ?? "").hasSuffix("\n")
        }
        let read = { (name: String) in try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) }
        #expect(try read("status") == "1\n")
        let stderr = try read("stderr")
        #expect(stderr.split(separator: "\n").count == 1, "one line: \(stderr)")
        #expect(stderr.contains(message), "\(stderr)")
        #expect(try read("before") == read("after"), "the terminal's modes are as they were")
        #expect(!stderr.contains("\u{1B}"), "nothing but the message")
    }
}
