import Foundation
import RosterKit

/// `roster` connected to a real server, running in tmux: what a person would have in front of
/// them. The app's log and state go to the server's temporary folder.
final class RosterSession {
    let tmux: TmuxSession

    convenience init(server: ServerProcess, columns: Int = 120, rows: Int = 40, arguments: [String] = [], environment: [String: String] = [:]) throws {
        try self.init(url: server.url, token: server.token, directory: server.directory, columns: columns, rows: rows,
                      arguments: arguments, environment: environment)
    }

    /// `roster` against any URL, with its state under `directory` and, when given, `settings`
    /// as its configuration file, and `environment` over the usual variables (e.g. a TERM).
    init(url: URL, token: String, directory: URL, settings: String? = nil, columns: Int = 120, rows: Int = 40, arguments: [String] = [],
         environment: [String: String] = [:]) throws {
        let roster = try BuiltProducts.url(of: "roster").path
        let configFolder = directory.appendingPathComponent("config")
        if let settings {
            try FileManager.default.createDirectory(at: configFolder.appendingPathComponent("roster"), withIntermediateDirectories: true)
            try settings.write(to: configFolder.appendingPathComponent("roster/roster.json"), atomically: true, encoding: .utf8)
        }
        let command = ([roster, "--server", url.absoluteString, "--token", token] + arguments)
            .map(TmuxSession.shellQuote).joined(separator: " ")
        tmux = try TmuxSession(columns: columns, rows: rows, command: command, environment: [
            "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": configFolder.path,
            "LANG": "C.UTF-8",
        ].merging(environment) { $1 })
    }

    /// The detail pane's text: what is right of the list's border on each line (the pane sits
    /// beside the list on a wide terminal).
    func detailPane() throws -> String {
        try tmux.screen().split(separator: "\n").compactMap { line in
            line.range(of: "││").map { String(line[$0.upperBound...]) }
        }.joined(separator: "\n")
    }
}

extension String {
    /// "2000" → "2,000", as the app prints counts.
    static func grouped(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        formatter.usesGroupingSeparator = true
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }
}

extension RosterSession {
    /// Marks the list's first 50 users, suspends them, and returns once a fifth of the run is
    /// done: a run to interrupt (on a server slowed with `--latency`, so it lasts).
    func suspendFiftyUntilAFifthIsDone() async throws {
        try await tmux.waitFor("1 / 300")
        for _ in 0..<50 { try tmux.send("Space") }
        try await tmux.waitFor("50 marked")
        try tmux.send("S")
        try await tmux.waitFor("Suspend 50 users?")
        try tmux.send("y")
        _ = try await tmux.waitForScreen("the run a fifth done") { screen in
            guard let range = screen.range(of: #"(\d+) / 50"#, options: .regularExpression) else { return false }
            return (Int(screen[range].split(separator: " ").first ?? "") ?? 0) >= 10
        }
    }

    /// Waits for the run to end (the failures' summary, or the marks and the progress line
    /// gone) and retries its failures with `r`, at most five times. Returns how many retries.
    func finishTheRunRetryingFailures() async throws -> Int {
        var retries = 0
        while true {
            let end = try await tmux.waitForScreen("the run's end", timeout: .seconds(60)) {
                $0.contains("Retry the") || !$0.contains("marked") && !$0.contains("Esc stop") && !$0.contains("Suspend 50")
            }
            if !end.contains("Retry the") || retries == 5 { return retries }
            retries += 1
            try tmux.send("r")
            try await tmux.waitForScreen("the retry to start") { !$0.contains("Retry the") }
        }
    }
}
