import RosterJournal
import RosterKit

/// The journal in the app: `U` the recent changes and runs, undo (always after a question,
/// always as a run), and the run a crash interrupted, offered at start.
extension AppModel {
    /// `U`: the recent changes screen.
    public func openRecentChanges() {
        guard listIdle else { return }
        guard let journal = recorder.journal else {
            showStatus("No change journal: the log says why", kind: .warning)
            return
        }
        let model = RecentChangesModel(journal: journal, connection: recorder.connection, activity: activity)
        model.onUndo = { [weak self, weak model] what, entries, run in
            guard let self, let model else { return }
            askUndo(what, entries: entries, run: run, in: model)
        }
        push(.recentChanges(model))
        model.load()
    }

    /// The question before an undo: what, how many, and that nobody's later change is overwritten.
    func askUndo(_ what: String, entries: [JournalEntry], run: JournalRun?, in model: RecentChangesModel, force: Bool = false) {
        if let undoRun, undoRun.isActive {
            showStatus("An undo is going: Esc stops it", kind: .warning)
            return
        }
        let undoable = entries.filter(\.isUndoable)
        guard !undoable.isEmpty else {
            let why = entries.first.map { $0.action == .resetPassword ? "A password reset cannot be undone: no password is kept." : "Nothing here can be undone." }
            showStatus(why ?? "Nothing to undo", kind: .warning)
            return
        }
        let changes = undoable.count == 1 ? "1 change" : "\(CountFormat.grouped(undoable.count)) changes"
        let message = force
            ? "Set back \(changes) that someone else changed since? Their change is overwritten."
            : "\(what). Set back \(changes)? Each is read first: one someone changed since is left alone and listed."
        let confirm = ConfirmModel(title: force ? "Overwrite their changes?" : "Undo", message: message,
                                   confirmLabel: force ? "Overwrite" : "Undo", isDestructive: force, activity: activity)
        confirm.onFinish = { [weak self, weak confirm, weak model] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            guard outcome == .confirmed, let model else { return }
            startUndo(what, entries: undoable, run: run, force: force, in: model)
        }
        push(.confirm(confirm))
    }

    func startUndo(_ what: String, entries: [JournalEntry], run: JournalRun?, force: Bool, in model: RecentChangesModel) {
        let undo = UndoRun(what: what, entries: entries, force: force, undoesRun: run?.id, directory: directory, recorder: recorder,
                           activity: activity, concurrency: bulkConcurrency)
        undo.onFinish = { [weak self] undo in
            guard let self else { return }
            list.refresh()
            if groupsView.hasStarted { groupsView.refresh() }
            showStatus(undo.summary, kind: undo.conflicts.isEmpty && undo.failures.isEmpty ? .info : .warning)
        }
        undoRun = undo
        model.show(undo)
        undo.start()
    }

    /// `o` in an undo's summary: set back its conflicts anyway, after asking.
    public func overwriteConflicts(in model: RecentChangesModel) {
        let conflicts = model.conflictsToOverwrite
        guard !conflicts.isEmpty, case .undo(let run) = model.mode else { return }
        askUndo(run.what, entries: conflicts, run: nil, in: model, force: true)
    }

    /// `r` in an undo's summary: the failures again.
    public func retryUndoFailures(in model: RecentChangesModel) {
        let failures = model.failuresToRetry
        guard !failures.isEmpty, case .undo(let run) = model.mode else { return }
        startUndo(run.what, entries: failures, run: nil, force: false, in: model)
    }

    // MARK: Interrupted runs

    /// At start: a run of this connection that the app never closed (a crash, SIGKILL) is
    /// offered: finish it (the users it did not reach, each read again first), undo what
    /// landed, or leave it for `U`.
    public func offerInterruptedRuns() {
        guard let journal = recorder.journal else { return }
        let connection = recorder.connection
        Task { [weak self] in
            guard let found = try? await journal.markInterrupted(), !found.isEmpty else { return }
            let runs = (try? await journal.interruptedRuns())?.filter { $0.connection == connection } ?? []
            guard let run = runs.last else { return }
            let entries = (try? await journal.entries(ofRun: run.id)) ?? []
            self?.askAboutInterrupted(run, entries: entries)
        }
    }

    func askAboutInterrupted(_ run: JournalRun, entries: [JournalEntry]) {
        guard let journal = recorder.journal else { return }
        let landed = entries.filter { $0.state == .done }.count
        let unknown = entries.filter { $0.state == .unknown || $0.state == .pending }.count
        var message = "\(run.what) \(run.count == 1 ? "1 user" : "\(CountFormat.grouped(run.count)) users") was interrupted: "
            + "\(CountFormat.grouped(landed)) done"
        if unknown > 0 { message += ", \(unknown) may have landed" }
        message += ", \(CountFormat.grouped(max(0, run.count - entries.count))) not sent."
        var options: [ChoiceModel.Option] = []
        let action = run.plan.flatMap { BulkAction(journalName: $0.action) }
        if action != nil { options.append(ChoiceModel.Option(key: "f", label: "Finish it")) }
        options.append(ChoiceModel.Option(key: "u", label: "Undo what landed"))
        options.append(ChoiceModel.Option(key: "l", label: "Later (U lists it)"))
        let choice = ChoiceModel(title: "A run was interrupted", message: message, options: options)
        choice.onFinish = { [weak self, weak choice] key in
            guard let self, let choice else { return }
            remove(.choice(choice))
            switch key {
            case "f":
                guard let action, let plan = run.plan else { return }
                let done = Set(entries.filter { $0.state == .done }.map(\.objectID))
                let rest = plan.userIDs.filter { !done.contains($0) }
                Task { try? await journal.settleInterrupted(run.id, as: .stopped) }
                start(BulkRun(action: action, scope: .ids(rest), total: rest.count, directory: directory, activity: activity,
                              concurrency: bulkConcurrency, recorder: recorder))
            case "u":
                Task { try? await journal.settleInterrupted(run.id, as: .stopped) }
                let model = RecentChangesModel(journal: journal, connection: recorder.connection, activity: activity)
                model.onUndo = { [weak self, weak model] what, entries, run in
                    guard let self, let model else { return }
                    askUndo(what, entries: entries, run: run, in: model)
                }
                push(.recentChanges(model))
                model.load()
                askUndo("Undo: \(run.what)", entries: entries, run: run, in: model)
            default:
                break
            }
        }
        push(.choice(choice))
    }
}
