// What each view draws, as plain values. The presenter builds these from the models; views
// are pure functions of them, so every state can be drawn into a grid canvas in a test.

public struct HeaderContent: Equatable, Sendable {
    public enum Connection: Equatable, Sendable {
        /// `unreachable`: no answer at all; `failing`: the server answers, with this error.
        case connecting, connected, unreachable, failing(String)
    }
    public var title = "Roster"
    public var server: String
    public var userCount: Int?
    /// The server has not said how many there are: at least `userCount`.
    public var userCountIsLowerBound = false
    public var connection: Connection
    /// A braille frame while anything loads, nil when idle.
    public var spinner: String?
    /// "3 marked", "1,000 marked": the users a bulk action would act on; nil for none.
    public var marked: String?

    public init(server: String, userCount: Int?, connection: Connection, spinner: String?) {
        self.server = server
        self.userCount = userCount
        self.connection = connection
        self.spinner = spinner
    }
}

public struct DialogContent: Equatable, Sendable {
    public var title: String
    public var message: String
    public var detail: String?
    /// Key and label of each action, e.g. ("r", "Retry").
    public var actions: [(key: String, label: String)]
    public var isError: Bool

    public init(title: String, message: String, detail: String? = nil, actions: [(key: String, label: String)], isError: Bool) {
        self.title = title
        self.message = message
        self.detail = detail
        self.actions = actions
        self.isError = isError
    }

    public static func == (lhs: DialogContent, rhs: DialogContent) -> Bool {
        lhs.title == rhs.title && lhs.message == rhs.message && lhs.detail == rhs.detail && lhs.isError == rhs.isError
            && lhs.actions.map(\.key) == rhs.actions.map(\.key) && lhs.actions.map(\.label) == rhs.actions.map(\.label)
    }
}

public struct FormFieldContent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Editable text; `cursor` is a character offset into `text`.
        case text(text: String, cursor: Int)
        /// One of a fixed set of options, changed with Left/Right.
        case picker(options: [String], selected: Int)
    }
    public var label: String
    public var kind: Kind
    public var error: String?

    public init(label: String, kind: Kind, error: String? = nil) {
        self.label = label
        self.kind = kind
        self.error = error
    }
}

public struct FormContent: Equatable, Sendable {
    public enum Focus: Equatable, Sendable {
        case field(Int)
        case submit
        case cancel
    }
    public var title: String
    public var fields: [FormFieldContent]
    public var focus: Focus
    public var submitLabel: String
    public var isSubmitting: Bool
    public var spinner: String?
    /// A failure that is not about one field (server down…), with how to retry.
    public var problem: String?

    public init(title: String, fields: [FormFieldContent], focus: Focus, submitLabel: String,
                isSubmitting: Bool = false, spinner: String? = nil, problem: String? = nil) {
        self.title = title
        self.fields = fields
        self.focus = focus
        self.submitLabel = submitLabel
        self.isSubmitting = isSubmitting
        self.spinner = spinner
        self.problem = problem
    }
}

/// The line above the hint bar: the search being typed, or a status message.
public enum StatusContent: Equatable, Sendable {
    case none
    case message(String, isError: Bool)
    case search(text: String, cursor: Int)
    /// The filter line being typed, with why it could not be applied.
    case filter(text: String, cursor: Int, problem: String?)
    /// A question on the line (the group of a bulk action), with why the answer did not do.
    case prompt(label: String, text: String, cursor: Int, problem: String?)
    /// A bulk run going on.
    case progress(ProgressContent)
}

/// The progress line of a bulk run: "Suspending ██████░░░░ 412 / 1,000 · 85/s · 7 s left".
public struct ProgressContent: Equatable, Sendable {
    /// "Suspending", "Finding the users", "Stopping".
    public var title: String
    /// 0...1; nil draws no bar.
    public var fraction: Double?
    /// "412 / 1,000".
    public var count: String
    /// "85/s · 7 s left", "waiting 5 s: the server asked to slow down".
    public var detail: String
    /// The key that stops it ("Esc stop"); nil once stopping.
    public var stopHint: String?

    public init(title: String, fraction: Double?, count: String, detail: String, stopHint: String?) {
        self.title = title
        self.fraction = fraction
        self.count = count
        self.detail = detail
        self.stopHint = stopHint
    }
}

/// A menu of one-key choices.
public struct ChoiceContent: Equatable, Sendable {
    public var title: String
    public var message: String
    public var options: [Hint]
    /// What Esc does: "Cancel", or "Close" where nothing is being chosen.
    public var escapeLabel: String

    public init(title: String, message: String, options: [Hint], escapeLabel: String = "Cancel") {
        self.title = title
        self.message = message
        self.options = options
        self.escapeLabel = escapeLabel
    }
}

/// What a bulk run did: counts, time and rate, then each failure with its reason.
public struct SummaryContent: Equatable, Sendable {
    public var title: String
    /// The counts, the time and rate, what was not started.
    public var lines: [String]
    /// "Ana Silva <ana@example.com>" and why.
    public var failures: [(who: String, reason: String)]
    public var actions: [Hint]
    public var isError: Bool

    public init(title: String, lines: [String], failures: [(who: String, reason: String)], actions: [Hint], isError: Bool) {
        self.title = title
        self.lines = lines
        self.failures = failures
        self.actions = actions
        self.isError = isError
    }

    public static func == (lhs: SummaryContent, rhs: SummaryContent) -> Bool {
        lhs.title == rhs.title && lhs.lines == rhs.lines && lhs.actions == rhs.actions && lhs.isError == rhs.isError
            && lhs.failures.map(\.who) == rhs.failures.map(\.who) && lhs.failures.map(\.reason) == rhs.failures.map(\.reason)
    }
}

public struct Hint: Equatable, Sendable {
    public var key: String
    public var label: String
    /// Kept when the bar is too narrow for every hint (help and quit).
    public var keep: Bool
    public init(_ key: String, _ label: String, keep: Bool = false) {
        self.key = key
        self.label = label
        self.keep = keep
    }
}

public struct HelpSection: Equatable, Sendable {
    public var title: String
    public var entries: [Hint]
    public init(title: String, entries: [Hint]) {
        self.title = title
        self.entries = entries
    }
}

/// One row of the import screen: a line of the file and what is, or became, of it.
public struct ImportRowContent: Equatable, Sendable {
    public enum Tone: Equatable, Sendable { case good, bad, quiet }
    public var line: Int
    public var email: String
    public var name: String
    public var verdict: String
    public var tone: Tone

    public init(line: Int, email: String, name: String, verdict: String, tone: Tone) {
        self.line = line
        self.email = email
        self.name = name
        self.verdict = verdict
        self.tone = tone
    }
}

/// The import screen: the preview of every row, the run's progress, then the result.
public struct ImportContent: Equatable, Sendable {
    public var title: String
    /// "48 to create · 2 bad rows (not sent)"
    public var summary: String
    /// The bar and the counts while it runs.
    public var progress: (fraction: Double, text: String)?
    public var rows: [ImportRowContent]
    public var firstRow: Int
    public var totalRows: Int
    /// Where the report went, or why it could not be written.
    public var note: String?
    public var noteIsError = false
    public var actions: [Hint]
    /// The four column titles: the rows' line, email, name and outcome, or in the mapping
    /// the column's number, header and field.
    public var columnTitles = ["Line", "Email", "Name", "Outcome"]
    /// The row the cursor is on (by its `line`), when there is a cursor.
    public var selectedLine: Int?

    public init(title: String, summary: String, rows: [ImportRowContent], firstRow: Int, totalRows: Int, actions: [Hint]) {
        self.title = title
        self.summary = summary
        self.rows = rows
        self.firstRow = firstRow
        self.totalRows = totalRows
        self.actions = actions
    }

    public static func == (lhs: ImportContent, rhs: ImportContent) -> Bool {
        lhs.title == rhs.title && lhs.summary == rhs.summary && lhs.progress?.fraction == rhs.progress?.fraction
            && lhs.progress?.text == rhs.progress?.text && lhs.rows == rhs.rows && lhs.firstRow == rhs.firstRow
            && lhs.totalRows == rhs.totalRows && lhs.note == rhs.note && lhs.noteIsError == rhs.noteIsError && lhs.actions == rhs.actions
            && lhs.columnTitles == rhs.columnTitles && lhs.selectedLine == rhs.selectedLine
    }
}
