import RosterJournal
import RosterKit

/// What undoing one journal entry came to.
public struct UndoOutcome: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Set back (`note`: what else to know, e.g. "recreated as id 42").
        case restored(note: String?)
        /// Already as it was before Roster's write: nothing was sent.
        case alreadyAsBefore
        /// Changed by someone else since: left alone unless the person chooses to overwrite.
        case conflict([UndoConflict])
        case failed(APIError)
        /// This kind of change cannot be taken back (a password reset), or it never landed.
        case notUndoable(String)
    }

    public var entry: JournalEntry
    public var kind: Kind

    public init(entry: JournalEntry, kind: Kind) {
        self.entry = entry
        self.kind = kind
    }

    public var isConflict: Bool {
        if case .conflict = kind { true } else { false }
    }

    /// One line for the summary: "Ana Silva <ana@example.com>: status: before active · Roster's
    /// suspended · now disabled".
    public var line: String {
        switch kind {
        case .restored(let note): "\(entry.label): set back" + (note.map { " (\($0))" } ?? "")
        case .alreadyAsBefore: "\(entry.label): already as before"
        case .conflict(let fields):
            "\(entry.label): changed since — " + fields.map { "\($0.field): before \($0.before) · Roster's \($0.roster) · now \($0.now)" }
                .joined(separator: "; ")
        case .failed(let error): "\(entry.label): \(error.errorDescription ?? "it failed")"
        case .notUndoable(let why): "\(entry.label): \(why)"
        }
    }
}

/// One field someone changed after Roster's write: the three values undo weighs.
public struct UndoConflict: Sendable, Equatable {
    public var field: String
    public var before: String
    public var roster: String
    public var now: String

    public init(field: String, before: String, roster: String, now: String) {
        self.field = field
        self.before = before
        self.roster = roster
        self.now = now
    }
}
