import RosterKit

/// Nothing typed is lost: quitting with a changed form asks first; a signal that cannot wait
/// for an answer keeps the draft for the next start, which offers it back.
extension AppModel {
    /// What the topmost changed form holds, if any form has changes.
    public var unsavedDraft: UnsavedDraft? {
        for screen in screens.reversed() {
            if case .form(let form) = screen, let draft = form.unsavedDraft { return draft }
        }
        return nil
    }

    /// `q` and Ctrl-C: quits, unless a form has changes: then asks. Asked again while the
    /// question is up (a second Ctrl-C), quits keeping the draft for the next start.
    public func requestQuit() {
        if let question = quitQuestion, case .confirm(let top) = topScreen, top === question {
            quitKeepingDraft()
            return
        }
        if askToQuitDuringBulk() || askToQuitDuringImport() { return }
        guard let draft = unsavedDraft else {
            quit()
            return
        }
        let who = draft.original.map { "Your edit of \($0.name)" } ?? "The new user"
        askToQuit(
            title: "Quit without saving?",
            message: "\(who) has changes that are not saved. (Ctrl-C again quits and keeps them for the next start.)",
            confirmLabel: "Discard and quit", cancelLabel: "Keep editing"
        ) { [weak self] in self?.quit() }
    }

    /// Puts up a question about quitting, remembered as `quitQuestion` so that a second
    /// Ctrl-C answers it by quitting at once. `onYes` runs when the answer is yes.
    func askToQuit(
        title: String, message: String, confirmLabel: String, cancelLabel: String,
        onYes: @escaping @MainActor () -> Void
    ) {
        let confirm = ConfirmModel(
            title: title, message: message, confirmLabel: confirmLabel, cancelLabel: cancelLabel,
            isDestructive: true, activity: activity)
        confirm.onFinish = { [weak self, weak confirm] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            if outcome == .confirmed { onYes() }
        }
        quitQuestion = confirm
        push(.confirm(confirm))
    }

    /// The import running now, if one is.
    public var runningImport: ImportModel? {
        for screen in screens.reversed() {
            if case .importer(let model) = screen, model.isRunning { return model }
        }
        return nil
    }

    /// Quitting during an import asks first; yes stops it, and Roster quits once the creates
    /// in flight are answered and the report is written. Returns whether it asked.
    func askToQuitDuringImport() -> Bool {
        guard let running = runningImport else { return false }
        askToQuit(
            title: "Quit during an import?",
            message: "\(CountFormat.grouped(running.progress.done)) of \(CountFormat.grouped(running.progress.total)) rows sent. "
                + "Quitting stops it: the creates in flight finish and the report is written. (Ctrl-C again quits at once, and still writes it.)",
            confirmLabel: "Stop and quit", cancelLabel: "Keep going"
        ) { [weak self, weak running] in
            guard let self else { return }
            if let running, running.isRunning {
                quitsAfterImport = true
                running.stop()
            } else {
                quit()
            }
        }
        return true
    }

    /// At start, when the last run left a draft: asks whether to open it again. `onAnswer`
    /// is told yes or no once the person answers (the front end then forgets the file).
    public func offerRestore(_ draft: UnsavedDraft, onAnswer: @escaping @MainActor (Bool) -> Void) {
        let confirm = ConfirmModel(
            title: "Unsaved draft", message: "Restore the unsaved draft of \(draft.label)?",
            confirmLabel: "Restore", cancelLabel: "Discard", activity: activity)
        confirm.onFinish = { [weak self, weak confirm] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            onAnswer(outcome == .confirmed)
            if outcome == .confirmed { restore(draft) }
        }
        push(.confirm(confirm))
    }

    /// Opens the form the draft came from, holding what was typed.
    private func restore(_ draft: UnsavedDraft) {
        let form = makeForm(draft.original.map { .edit($0) } ?? .create)
        form.restore(draft)
        push(.form(form))
    }

    /// `y`: the selected user's email to the clipboard.
    public func copySelectedEmail() {
        guard listIdle else { return }
        if !list.marks.isEmpty { return copyMarkedEmails() }
        guard let user = list.selectedUser else {
            showStatus("No user selected", kind: .warning)
            return
        }
        guard let clipboard else {
            showStatus("No clipboard here", kind: .warning)
            return
        }
        clipboard.copy(user.email)
        showStatus("Copied \(user.email)")
    }
}
