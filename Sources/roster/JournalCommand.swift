import Foundation
import RosterJournal

/// `roster journal --since 1d`: the change journal as text, for a ticket or an audit — the
/// runs, then every write with its state, connection, object, what changed and its version.
struct JournalCommand {
    static let spec = CommandSpec(
        name: "roster journal",
        abstract: "Print the change journal (every write Roster made) as text.",
        discussion: "The journal is $XDG_STATE_HOME/roster/journal.sqlite. No password is ever in it.",
        options: [
            .init(name: "since", valueName: "age", help: "How far back: 30m, 12h, 1d, 2w (default 1d)."),
            .init(name: "connection", valueName: "name", help: "Only this connection's writes (its profile name, or its label)."),
        ])

    var since = "1d"
    var connection: String?

    init(_ line: ParsedCommandLine) {
        since = line.value("since") ?? since
        connection = line.value("connection")
    }

    func run() async throws {
        PrivateFiles.restrictNewFiles()
        guard let age = Self.seconds(since) else {
            throw CommandLineError(message: "--since takes a number and a unit: 30m, 12h, 1d or 2w, not “\(since)”.")
        }
        let path = Paths(environment: ProcessInfo.processInfo.environment).journalFile
        guard FileManager.default.fileExists(atPath: path) else {
            print("No journal yet (\(path)): Roster has made no change here.")
            return
        }
        let journal: ChangeJournal
        do {
            journal = try ChangeJournal(path: path)
        } catch {
            throw CommandLineError(message: "The journal \(path) cannot be read: \(error)")
        }
        for line in try await Self.lines(of: journal, since: Date().addingTimeInterval(-age), label: since, connection: connection) {
            print(line)
        }
    }

    /// The text: a count, the runs, then each write with its run.
    static func lines(of journal: ChangeJournal, since start: Date, label: String, connection: String?) async throws -> [String] {
        let runs = try await journal.runs(since: start).filter { connection == nil || $0.connection == connection }
        let entries = try await journal.entries(since: start).filter { connection == nil || $0.connection == connection }
        var lines = ["Roster's change journal since \(label) ago: \(runs.count) \(runs.count == 1 ? "run" : "runs"), \(entries.count) \(entries.count == 1 ? "write" : "writes")"]
        if !runs.isEmpty {
            lines += ["", "Runs:"] + runs.map { "  " + $0.textLine }
        }
        if !entries.isEmpty {
            lines += ["", "Writes (state: done, failed, or unknown = may have landed):"]
            lines += entries.map { "  " + $0.textLine + ($0.runID.map { "  [run \($0.prefix(8))]" } ?? "") }
        }
        return lines
    }

    /// "30m" → 1800; nil for anything else.
    static func seconds(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let number = Double(text.dropLast()), number > 0 else { return nil }
        switch unit {
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        case "w": return number * 604_800
        default: return nil
        }
    }
}
