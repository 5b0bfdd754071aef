import RosterKit

/// Bulk actions: `b` the menu of actions on the marked users (or the selected one), `S` and
/// `d` with marks ask to suspend or delete them all. A run goes on while the list stays
/// usable; Esc stops it.
extension AppModel {
    public var isBulkRunning: Bool { bulkRun?.isActive == true }

    // MARK: The menu

    /// `b`: the actions for the marked users, or the selected one when none is marked. During
    /// a run it says so; after one that left failures, it shows that summary again.
    /// A key's frame is about to be drawn: a running bulk run's progress goes into it (see
    /// `BulkRun.publishForFrame`).
    public func foldProgressIntoFrame() {
        bulkRun?.publishForFrame()
    }

    /// A key (or a click) came: a bulk run or an import holds its next requests until the
    /// keys pause (`WorkRunner.keysPressed`).
    public func notePersonActing() {
        bulkRun?.keysPressed()
        runningImport?.keysPressed()
        undoRun?.keysPressed()
    }

    public func openBulkMenu() {
        guard listIdle else { return }
        if isBulkRunning {
            showStatus("A bulk run is going: Esc stops it", kind: .warning)
            return
        }
        if bulkSummaryPending, let run = bulkRun {
            bulkSummaryPending = false
            push(.bulkSummary(run))
            return
        }
        guard let subject = bulkSubject() else {
            showStatus("No user selected", kind: .warning)
            return
        }
        var options = [ChoiceModel.Option(key: "s", label: "Suspend"), ChoiceModel.Option(key: "a", label: "Reactivate")]
        if traits.hasRoles { options.append(ChoiceModel.Option(key: "o", label: "Change the role…")) }
        if traits.hasGroups {
            options.append(ChoiceModel.Option(key: "g", label: "Add to a group…"))
            options.append(ChoiceModel.Option(key: "x", label: "Remove from a group…"))
        }
        if traits.canResetPassword { options.append(ChoiceModel.Option(key: "p", label: "Reset the password…")) }
        if traits.canUnlock { options.append(ChoiceModel.Option(key: "l", label: "Unlock")) }
        options.append(ChoiceModel.Option(key: "d", label: "Delete…"))
        let menu = ChoiceModel(title: "Bulk actions", message: subject.label, options: options)
        menu.onFinish = { [weak self, weak menu] key in
            guard let self, let menu else { return }
            remove(.choice(menu))
            switch key {
            case "s": askBulk(.suspend)
            case "a": askBulk(.reactivate)
            case "o": chooseRole()
            case "g": askForGroup(adding: true)
            case "x": askForGroup(adding: false)
            case "d": askBulk(.delete)
            case "p": startPasswordReset()
            case "l": startUnlock()
            default: break
            }
        }
        push(.choice(menu))
    }

    private func chooseRole() {
        guard let subject = bulkSubject() else { return }
        let options = Role.known.map { ChoiceModel.Option(key: $0.rawValue.first ?? "?", label: $0.rawValue.capitalized) }
        let menu = ChoiceModel(title: "Change the role", message: subject.label, options: options)
        menu.onFinish = { [weak self, weak menu] key in
            guard let self, let menu else { return }
            remove(.choice(menu))
            if let key, let role = Role.known.first(where: { $0.rawValue.first == key }) { askBulk(.setRole(role)) }
        }
        push(.choice(menu))
    }

    /// The group line: a name, looked up as the filter line does (AppModel+GroupLookup).
    private func askForGroup(adding: Bool) {
        guard let subject = bulkSubject() else { return }
        let label = adding ? " Add \(subject.shortLabel) to the group: " : " Remove \(subject.shortLabel) from the group: "
        openLine(LineEditor(.bulkGroup(adding: adding), label: label))
    }

    /// Enter on the group line: looks the group up, then asks before the run.
    func commitBulkGroup(_ editor: LineEditor, adding: Bool) {
        let name = editor.trimmedText
        guard !name.isEmpty else {
            showLineProblem("Type a group's name.")
            return
        }
        lookUpGroup(named: name) { [weak self] group in
            self?.askBulk(adding ? .addToGroup(group) : .removeFromGroup(group))
        }
    }

    // MARK: Asking and running

    /// Who an action would apply to: the marks, else the selected user.
    struct BulkSubject {
        var scope: BulkScope
        var count: Int
        var countLabel: String
        /// "3 marked users", "all 1,000 users matching “ana”", "Ana Silva <ana@example.com>".
        var label: String
        /// "3 users", "Ana Silva".
        var shortLabel: String
        var fromMarks: Bool
    }

    func bulkSubject() -> BulkSubject? {
        let marks = list.marks
        if let query = marks.allMatching {
            let count = marks.countLabel
            return BulkSubject(scope: marks.scope, count: marks.count, countLabel: count,
                               label: "All \(count) users matching \(Self.describe(query))",
                               shortLabel: "\(count) users", fromMarks: true)
        }
        if !marks.isEmpty {
            let count = marks.countLabel
            let plural = marks.count == 1 ? "user" : "users"
            return BulkSubject(scope: marks.scope, count: marks.count, countLabel: count,
                               label: "\(count) marked \(plural)", shortLabel: "\(count) \(plural)", fromMarks: true)
        }
        guard let selected = list.selectedUser else { return nil }
        let user = detail.user?.id == selected.id ? detail.user ?? selected : selected
        return BulkSubject(scope: .users([BulkTarget(user: user, isFresh: false)]), count: 1, countLabel: "1",
                           label: "\(user.name) <\(user.email)>", shortLabel: user.name, fromMarks: false)
    }

    /// The confirmation ("Suspend 1,000 users?"); yes starts the run.
    func askBulk(_ action: BulkAction) {
        guard let subject = bulkSubject() else {
            showStatus("No user selected", kind: .warning)
            return
        }
        if isBulkRunning {
            showStatus("A bulk run is going: Esc stops it", kind: .warning)
            return
        }
        var question = action.question(about: subject.fromMarks ? subject.shortLabel : subject.label, canUndo: recorder.journal != nil)
        if let query = list.marks.allMatching, subject.fromMarks {
            question += " Every user matching \(Self.describe(query)), loaded or not."
        }
        let confirm = ConfirmModel(
            title: action.title, message: question, confirmLabel: action.buttonLabel, isDestructive: action.isDestructive, activity: activity)
        confirm.onFinish = { [weak self, weak confirm] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            if outcome == .confirmed { startBulk(action, subject: subject) }
        }
        push(.confirm(confirm))
    }

    private func startBulk(_ action: BulkAction, subject: BulkSubject) {
        if subject.fromMarks { list.unmarkAll() }
        start(BulkRun(action: action, scope: subject.scope, total: subject.count, directory: directory, activity: activity, concurrency: bulkConcurrency, recorder: recorder))
    }

    func start(_ run: BulkRun) {
        bulkSummaryPending = false
        clearStatus() // the progress line takes the status line
        run.onFinish = { [weak self] run in self?.bulkRunFinished(run) }
        bulkRun = run
        run.start()
    }

    /// Esc on the list during a run: the requests in flight finish, no new ones start.
    public func stopBulk() {
        guard let run = bulkRun, run.isActive else { return }
        run.stop() // the progress line says "Stopping" until they are answered
    }

    /// `r` in the summary: the same action on the users that failed, and only those.
    func retryBulkFailures(of run: BulkRun) {
        let targets = run.failedTargets
        remove(.bulkSummary(run))
        guard !targets.isEmpty else {
            if run.findError != nil {
                start(BulkRun(action: run.action, scope: run.scope, total: run.progress.total, directory: directory, activity: activity, concurrency: bulkConcurrency, recorder: recorder))
            }
            return
        }
        start(BulkRun(action: run.action, scope: .users(targets), total: targets.count, directory: directory, activity: activity, concurrency: bulkConcurrency, recorder: recorder))
    }

    private func bulkRunFinished(_ run: BulkRun) {
        guard bulkRun === run else { return }
        onBulkRunFinished?(run)
        list.refresh()
        if quitsAfterBulk {
            quit()
            return
        }
        let progress = run.progress
        if run.failures.isEmpty, !run.wasStopped, run.findError == nil {
            let users = progress.succeeded == 1 ? "1 user" : "\(CountFormat.grouped(progress.succeeded)) users"
            var text = run.action.completed(users) + " in \(DurationFormat.duration(progress.elapsed))"
            if let rate = progress.rate, progress.elapsed >= .seconds(1) { text += " (\(DurationFormat.rate(rate)))" }
            if progress.unchanged > 0 { text += "; \(CountFormat.grouped(progress.unchanged)) \(run.action.alreadyLabel)" }
            showStatus(text)
            showGeneratedPassword(of: run)
            return
        }
        if listIdle {
            push(.bulkSummary(run))
        } else {
            bulkSummaryPending = true
            showStatus("The bulk run ended with failures: b shows them", kind: .warning)
        }
    }

    // MARK: Quit

    /// Quitting during a run asks first; yes stops it and quits once its requests in flight
    /// are answered. Returns whether it asked.
    func askToQuitDuringBulk() -> Bool {
        guard let run = bulkRun, run.isActive else { return false }
        let progress = run.progress
        askToQuit(
            title: "Quit during a bulk run?",
            message: "\(run.action.progressive): \(CountFormat.grouped(progress.done)) of \(run.usersLabel) done. Quitting stops it: "
                + "the requests in flight finish, the rest are not sent. (Ctrl-C again quits at once.)",
            confirmLabel: "Stop and quit", cancelLabel: "Keep going"
        ) { [weak self] in
            guard let self else { return }
            if let run = bulkRun, run.isActive {
                quitsAfterBulk = true
                run.stop()
            } else {
                quit()
            }
        }
        return true
    }
}
