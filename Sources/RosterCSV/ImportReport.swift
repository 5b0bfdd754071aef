import Foundation

/// What became of one row of an import.
public struct ImportOutcome: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case created(id: String)
        /// An existing user, changed as the file says (the fields, before → after).
        case updated(id: String, changes: String)
        /// An existing user that already had everything the file says: nothing sent.
        case unchanged(id: String)
        /// Not sent by the person's choice (a new user in an "update only" import).
        case skipped(reason: String)
        /// A user with this email was already there (an earlier run, or someone else): not sent.
        case alreadyExists(id: String?)
        case failed(reason: String)
        /// Bad in the preview: never sent.
        case invalid(reason: String)
        /// The run was stopped before this row was sent.
        case notSent
        /// Sent, but Roster quit before the answer came: it may have been created. Running the
        /// file again settles it (the row's email is looked up first, and its key replays).
        case unanswered
    }

    public var line: Int
    public var email: String
    public var kind: Kind
    /// What else happened: the groups joined, or not.
    public var note = ""

    public init(line: Int, email: String, kind: Kind, note: String = "") {
        self.line = line
        self.email = email
        self.kind = kind
        self.note = note
    }

    /// The report's `outcome` column.
    public var label: String {
        switch kind {
        case .created: "created"
        case .updated: "updated"
        case .unchanged: "unchanged"
        case .skipped: "skipped"
        case .alreadyExists: "already exists, skipped"
        case .failed: "failed"
        case .invalid: "invalid, not sent"
        case .notSent: "not sent (stopped)"
        case .unanswered: "sent, no answer (quit)"
        }
    }

    /// The report's `detail` column: the user's id, or the reason.
    public var detail: String {
        note.isEmpty ? basicDetail : basicDetail + "; " + note
    }

    private var basicDetail: String {
        switch kind {
        case .created(let id), .unchanged(let id): id
        case .updated(let id, let changes): "\(id): \(changes)"
        case .skipped(let reason): reason
        case .alreadyExists(let id): id ?? ""
        case .failed(let reason), .invalid(let reason): reason
        case .notSent: "run again to send it"
        case .unanswered: "run again: it is created at most once"
        }
    }
}

/// The report of an import run: a CSV with one record per row of the input, in line order,
/// written next to the input file.
public enum ImportReport {
    public static let columns = ["line", "email", "outcome", "detail"]

    public static func text(_ outcomes: [ImportOutcome]) -> String {
        CSVField.record(columns) + outcomes.sorted { $0.line < $1.line }
            .map { CSVField.record([String($0.line), $0.email, $0.label, $0.detail]) }.joined()
    }

    /// Writes the report beside `input` and returns its path.
    public static func write(_ outcomes: [ImportOutcome], nextTo input: String, at date: Date = Date()) throws(CSVFileError) -> String {
        let path = CSVFileNames.importReport(for: input, at: date)
        guard FileManager.default.createFile(atPath: path, contents: Data(text(outcomes).utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CSVFileError("Cannot write the report \(path).")
        }
        return path
    }
}
