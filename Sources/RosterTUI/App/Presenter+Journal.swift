import Foundation
import RosterApp
import RosterJournal
import RosterKit

/// The recent changes screen (`U`) as its view draws it: the runs and changes, a run's users,
/// or an undo's progress and then its summary with conflicts (before · Roster's · now).
extension Presenter {
    func recentChanges(_ changes: RecentChangesModel, visible: Int) -> RecentChangesContent {
        let first = changes.offset
        let range = first ..< min(changes.count, first + visible)
        var content: RecentChangesContent
        switch changes.mode {
        case .changes:
            content = RecentChangesContent(
                title: "Recent changes", subtitle: "Runs and changes, newest first",
                rows: range.map { Self.row(changes.rows[$0]) }, firstRow: first, selected: changes.selected, totalRows: changes.count,
                actions: [Hint("Enter", "Users"), Hint("u", "Undo"), Hint("Esc", "Close")])
            content.empty = changes.isLoading ? "Reading the journal…" : "No change yet: every write Roster makes is listed here."
        case .run(let run):
            content = RecentChangesContent(
                title: run.what, subtitle: "\(Self.when(run.startedAt)) · \(run.connection) · \(Self.users(run.count)) · \(run.state.rawValue)",
                rows: range.map { Self.row(.entry(changes.entries[$0])) }, firstRow: first, selected: changes.selected,
                totalRows: changes.count, actions: [Hint("u", "Undo this one"), Hint("Esc", "Back")])
            content.empty = "No write was sent in this run."
        case .undo(let undo):
            let outcomes = undo.outcomes + undo.notUndoable
            content = RecentChangesContent(
                title: undo.what, subtitle: undo.isActive ? "Setting back: each is read first" : undo.summary,
                rows: range.map { Self.row(outcomes[$0]) }, firstRow: first, selected: changes.selected, totalRows: outcomes.count,
                actions: [])
            let progress = undo.progress
            if undo.isActive {
                content.progress = (progress.fraction ?? 0, progress.summary)
                content.actions = [Hint("Esc", undo.phase == .stopping ? "Stopping…" : "Stop")]
            } else {
                if !undo.conflicts.isEmpty {
                    content.note = "Changed by someone since: left alone. o sets them back anyway."
                    content.noteIsError = true
                    content.actions.append(Hint("o", "Overwrite"))
                }
                if !undo.failures.isEmpty { content.actions.append(Hint("r", "Retry failures")) }
                content.actions.append(Hint("Esc", "Back"))
            }
        }
        if let error = changes.loadError {
            content.note = error
            content.noteIsError = true
        }
        return content
    }

    private static func row(_ row: RecentChangesModel.Row) -> RecentChangesContent.Row {
        switch row {
        case .run(let run):
            let tone: RecentChangesContent.Row.Tone = switch run.state {
            case .done: .good
            case .running: .quiet
            case .stopped: .warning
            case .interrupted: .bad
            }
            var text = "\(run.what) · \(users(run.count))"
            if run.connection.isEmpty == false { text += " · \(run.connection)" }
            if run.undoes != nil { text += " (an undo)" }
            return RecentChangesContent.Row(when: when(run.startedAt), mark: mark(run.state.rawValue), text: text, tone: tone)
        case .entry(let entry):
            return RecentChangesContent.Row(when: when(entry.time), mark: mark(entry.state), text: "\(entry.label): \(entry.change)",
                                            tone: tone(entry.state))
        }
    }

    private static func row(_ outcome: UndoOutcome) -> RecentChangesContent.Row {
        let (mark, tone): (String, RecentChangesContent.Row.Tone) = switch outcome.kind {
        case .restored: ("undone ", .good)
        case .alreadyAsBefore: ("as was ", .quiet)
        case .conflict: ("CHANGED", .bad)
        case .failed: ("failed ", .bad)
        case .notUndoable: ("cannot ", .warning)
        }
        return RecentChangesContent.Row(when: when(outcome.entry.time), mark: mark, text: outcome.line, tone: tone)
    }

    private static func mark(_ state: JournalEntry.State) -> String {
        switch state {
        case .done: mark("done")
        case .failed: mark("failed")
        case .pending: mark("sending")
        case .unknown: mark("unknown")
        }
    }

    /// States in one width, so the texts line up.
    private static func mark(_ word: String) -> String {
        word.count >= 7 ? String(word.prefix(7)) : word + String(repeating: " ", count: 7 - word.count)
    }

    private static func tone(_ state: JournalEntry.State) -> RecentChangesContent.Row.Tone {
        switch state {
        case .done: .good
        case .failed: .bad
        case .pending, .unknown: .warning
        }
    }

    private static func users(_ count: Int) -> String {
        count == 1 ? "1 user" : "\(Format.count(count)) users"
    }

    /// "11-26 01:02", local time: short enough for 40 columns.
    static func when(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { let value = value ?? 0; return value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}
