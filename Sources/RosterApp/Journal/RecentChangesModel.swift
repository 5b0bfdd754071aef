import Observation
import RosterJournal
import RosterKit

/// `U`: the recent changes and runs, newest first; Enter shows a run's users; `u` undoes the
/// chosen change or run (after a question), and the undo's progress and summary show here.
@MainActor
@Observable
public final class RecentChangesModel {
    /// One line of the list: a run, or a change made on its own.
    public enum Row: Sendable, Equatable {
        case run(JournalRun)
        case entry(JournalEntry)

        /// Seconds since 1970, to put runs and changes in one order.
        var time: Double {
            switch self {
            case .run(let run): run.startedSeconds
            case .entry(let entry): entry.seconds
            }
        }
    }

    public enum Mode: Equatable {
        /// The changes and runs.
        case changes
        /// One run's entries (Enter on a run).
        case run(JournalRun)
        /// An undo going on, or how it ended.
        case undo(UndoRun)

        public static func == (lhs: Mode, rhs: Mode) -> Bool {
            switch (lhs, rhs) {
            case (.changes, .changes): true
            case (.run(let a), .run(let b)): a == b
            case (.undo(let a), .undo(let b)): a === b
            default: false
            }
        }
    }

    /// How many runs and single changes the list reads.
    public static let limit = 500

    public private(set) var mode = Mode.changes
    public private(set) var rows: [Row] = []
    /// The shown run's entries (mode `.run`).
    public private(set) var entries: [JournalEntry] = []
    public private(set) var selected = 0
    /// The first row shown.
    public private(set) var offset = 0
    /// Rows the screen shows at once (set by the front end as it lays the screen out).
    public var visibleRowCount = 10
    public private(set) var loadError: String?
    public private(set) var isLoading = false

    @ObservationIgnored let journal: ChangeJournal
    @ObservationIgnored let connection: String
    /// Asked to undo (the app asks first, then starts the run).
    @ObservationIgnored var onUndo: (@MainActor (_ what: String, _ entries: [JournalEntry], _ run: JournalRun?) -> Void)?
    @ObservationIgnored private let activity: Activity
    /// Where the list was when Enter showed a run.
    @ObservationIgnored private var listPosition = (selected: 0, offset: 0)

    init(journal: ChangeJournal, connection: String, activity: Activity) {
        self.journal = journal
        self.connection = connection
        self.activity = activity
    }

    /// The count of rows of the mode shown.
    public var count: Int {
        switch mode {
        case .changes: rows.count
        case .run: entries.count
        case .undo(let run): run.outcomes.count + run.notUndoable.count
        }
    }

    // MARK: Loading

    func load() {
        isLoading = true
        let journal = self.journal
        _ = activity.startLoad { [weak self] in
            do {
                async let runs = journal.runs(limit: Self.limit)
                async let single = journal.entries(limit: Self.limit, outsideRuns: true)
                let merged = (try await runs.map(Row.run) + (try await single).map(Row.entry)).sorted { (a: Row, b: Row) in a.time > b.time }
                self?.loaded(Array(merged.prefix(Self.limit)))
            } catch {
                self?.failed("\(error)")
            }
        }
    }

    private func loaded(_ rows: [Row]) {
        isLoading = false
        loadError = nil
        self.rows = rows
        clampSelection()
    }

    private func failed(_ text: String) {
        isLoading = false
        loadError = "The journal could not be read: \(text)"
    }

    // MARK: Moving

    public func move(by delta: Int) {
        guard count > 0 else { return }
        selected = min(max(0, selected + delta), count - 1)
        scrollToSelection()
    }

    public func pageDown() { move(by: max(1, visibleRowCount - 1)) }
    public func pageUp() { move(by: -max(1, visibleRowCount - 1)) }
    public func moveToTop() { move(by: -count) }
    public func moveToBottom() { move(by: count) }

    private func scrollToSelection() {
        let height = max(1, visibleRowCount)
        if selected < offset { offset = selected }
        if selected >= offset + height { offset = selected - height + 1 }
    }

    private func clampSelection() {
        selected = min(selected, max(0, count - 1))
        offset = min(offset, selected)
        scrollToSelection()
    }

    public var selectedRow: Row? {
        guard case .changes = mode, rows.indices.contains(selected) else { return nil }
        return rows[selected]
    }

    // MARK: Keys

    /// Enter: a run's users; on a change, nothing more to show.
    public func open() {
        guard case .run(let run)? = selectedRow else { return }
        listPosition = (selected, offset)
        let journal = self.journal
        _ = activity.startLoad { [weak self] in
            do {
                let entries = try await journal.entries(ofRun: run.id)
                guard let self else { return }
                self.entries = entries
                mode = .run(run)
                selected = 0
                offset = 0
            } catch {
                self?.failed("\(error)")
            }
        }
    }

    /// Esc: back from a run's users or an undo's summary to the list; returns false when the
    /// list itself is shown (the screen closes). During an undo, Esc stops it.
    public func back() -> Bool {
        switch mode {
        case .changes:
            return false
        case .undo(let run) where run.isActive:
            run.stop()
            return true
        case .run, .undo:
            mode = .changes
            (selected, offset) = listPosition
            entries = []
            load()
            return true
        }
    }

    /// `u`: undo the selected run or change (in a run's list, the selected user's change).
    public func undoSelected() {
        switch mode {
        case .changes:
            guard let row = selectedRow else { return }
            switch row {
            case .entry(let entry):
                onUndo?("Undo: \(entry.label) \(entry.change)", [entry], nil)
            case .run(let run):
                let journal = self.journal
                _ = activity.startLoad { [weak self] in
                    guard let entries = try? await journal.entries(ofRun: run.id) else { return }
                    self?.onUndo?("Undo: \(run.what)", entries, run)
                }
            }
        case .run(let run):
            guard entries.indices.contains(selected) else { return }
            let entry = entries[selected]
            onUndo?("Undo: \(entry.label) \(entry.change) (of \(run.what))", [entry], nil)
        case .undo:
            break
        }
    }

    /// Shows `run`'s progress and then its summary here.
    func show(_ run: UndoRun) {
        if case .changes = mode { listPosition = (selected, offset) }
        mode = .undo(run)
        selected = 0
        offset = 0
    }

    /// In an undo's summary: its conflicts, to set back anyway (the person chose to).
    public var conflictsToOverwrite: [JournalEntry] {
        guard case .undo(let run) = mode, !run.isActive else { return [] }
        return run.conflicts.map(\.entry)
    }

    public var failuresToRetry: [JournalEntry] {
        guard case .undo(let run) = mode, !run.isActive else { return [] }
        return run.failures.map(\.entry)
    }
}
