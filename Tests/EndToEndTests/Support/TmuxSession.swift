import Foundation
import RosterKitTestSupport

/// A detached tmux session of a known size running one command, on a private tmux server
/// (its own socket), so tests never touch a person's tmux or each other.
final class TmuxSession {
    let socket: String
    let name = "roster"

    static func requireTmux() throws {
        guard (try? run(["tmux", "-V"]))?.status == 0 else {
            throw EndToEndError("tmux is not installed: the end-to-end tests need it (`make deps` installs it).")
        }
    }

    /// Starts `command` (run by /bin/sh) in a new session of `columns`×`rows`.
    init(columns: Int = 120, rows: Int = 40, command: String, environment: [String: String] = [:]) throws {
        try Self.requireTmux()
        // The test process's id in the name: a run that crashed leaves its servers behind, and
        // scripts/swift-test-once-more-on-upstream-crash.sh stops those whose process is gone.
        socket = "roster-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        let exports = environment.map { "export \($0.key)=\(Self.shellQuote($0.value));" }.joined(separator: " ")
        let result = try Self.run(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", name,
                                   "-x", String(columns), "-y", String(rows), "/bin/sh -c \(Self.shellQuote("\(exports) \(command)"))"],
                                  environment: ["TERM": "xterm-256color"])
        guard result.status == 0 else { throw EndToEndError("tmux new-session failed: \(result.output)") }
        // Keep the pane after the command exits, so its last screen can still be read.
        _ = try? tmux(["set-option", "-t", name, "remain-on-exit", "on"])
    }

    /// Sends keys as tmux names them: "j", "Enter", "Escape", "C-c", "PageDown"…
    func send(_ keys: String...) throws {
        for key in keys { _ = try tmux(["send-keys", "-t", name, key]) }
    }

    /// Writes these bytes to the pane's terminal as they are (`send-keys -H`): an escape
    /// sequence reaches the program exactly as a terminal would send it, whatever tmux's idea
    /// of the key.
    func sendBytes(_ sequence: String) throws {
        _ = try tmux(["send-keys", "-t", name, "-H"] + sequence.utf8.map { String($0, radix: 16) })
    }

    /// Types text literally.
    func type(_ text: String) throws {
        _ = try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// Pastes the file's text as a terminal paste does (`paste-buffer -p`: bracketed when the
    /// application asked for it): for text too long for a command line.
    func paste(file path: String) throws {
        _ = try tmux(["load-buffer", "-b", "paste", path])
        _ = try tmux(["paste-buffer", "-p", "-d", "-b", "paste", "-t", name])
    }

    /// The screen as text, one line per row.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name]).output
    }

    /// The screen with colour escape sequences (for screenshots).
    func screenWithEscapes() throws -> String {
        try tmux(["capture-pane", "-p", "-e", "-t", name]).output
    }

    /// Sets an option of this tmux server (`set-option -s`), e.g. `set-clipboard on`.
    func setServerOption(_ name: String, _ value: String) throws {
        _ = try tmux(["set-option", "-s", name, value])
    }

    /// The newest paste buffer, where tmux puts what an application copied with OSC 52 when
    /// `set-clipboard` is on; nil while there is none.
    func newestBuffer() -> String? {
        guard let result = try? Self.run(["tmux", "-L", socket, "show-buffer"]), result.status == 0 else { return nil }
        return result.output
    }

    /// The process id of the pane's command.
    func panePID() throws -> Int32 {
        let text = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).output
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw EndToEndError("no pane pid in \(text)") }
        return pid
    }

    func resize(columns: Int, rows: Int) throws {
        _ = try tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// Whether the command in the pane has exited.
    func paneIsDead() throws -> Bool {
        try tmux(["display-message", "-p", "-t", name, "#{pane_dead}"]).output.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Waits until the screen shows `text`; the error shows the screen as it was.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(20)) async throws -> String {
        try await waitForScreen("“\(text)”", timeout: timeout) { $0.contains(text) }
    }

    /// Waits for `text`, then for the screen to stay the same for 150 ms: a frame wider than
    /// the pty's buffer reaches tmux in pieces, and a capture between them mixes two frames.
    func waitForSettled(_ text: String, timeout: Duration = .seconds(20)) async throws -> String {
        var previous = try await waitFor(text, timeout: timeout)
        return try await waitForScreen("a settled screen with “\(text)”", timeout: timeout, poll: .milliseconds(150)) { current in
            defer { previous = current }
            return current == previous && current.contains(text)
        }
    }

    @discardableResult
    func waitForScreen(_ what: String, timeout: Duration = .seconds(20), poll: Duration = .milliseconds(50),
                       _ condition: (String) -> Bool) async throws -> String {
        var last = ""
        do {
            try await waitUntil(within: timeout, poll: poll, what) {
                last = try screen()
                return condition(last)
            }
        } catch {
            throw EndToEndError("\(error)\n--- screen ---\n\(last)\n--------------")
        }
        return last
    }

    /// Stops the tmux server and waits (up to 5 s) until the pane's command has ended: it gets
    /// SIGHUP and may still write on its way out (a draft into its state folder), which would
    /// make the folder again after the test removed it.
    func kill() {
        let command = (try? panePID()).map { [$0] + Self.children(of: $0) } ?? []
        _ = try? tmux(["kill-server"])
        let deadline = ContinuousClock.now + .seconds(5)
        while command.contains(where: Self.isRunning), ContinuousClock.now < deadline {
            usleep(10_000)
        }
    }

    private static func children(of pid: Int32) -> [Int32] {
        guard let result = try? run(["pgrep", "-P", String(pid)]) else { return [] }
        return result.output.split(whereSeparator: \.isNewline).compactMap { Int32($0) }
    }

    /// Whether `pid` is a process that has not ended (a zombie has: nobody may reap it soon).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(end, offsetBy: 2)] != "Z"
    }

    deinit { kill() }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Self.run(["tmux", "-L", socket] + arguments)
        guard result.status == 0 else { throw EndToEndError("tmux \(arguments.joined(separator: " ")) failed: \(result.output)") }
        return result
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try Subprocess.run(arguments, environment: environment)
    }

    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
