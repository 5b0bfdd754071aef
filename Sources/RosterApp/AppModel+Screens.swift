import RosterKit

/// The stack of screens over the list: help, dialogs, forms and questions; `r` retries what
/// failed on the one on top, Enter confirms it, Esc closes it.
extension AppModel {
    /// `?`: the list of keys.
    public func showHelp() {
        guard listIdle else { return }
        push(.help)
    }

    /// `r`: retries what failed on the screen on top: the error dialog's action, the failed
    /// delete or save, else the list's failed reload or pages, else the detail pane.
    public func retry() {
        switch topScreen {
        case .error(let dialog):
            remove(.error(dialog))
            dialog.retryAction?()
        case .confirm(let confirm):
            confirm.retry()
        case .form(let form):
            form.retry()
        case .help, .choice, .importer:
            break
        case .export(let export):
            retryExport(export)
        case .bulkSummary(let run):
            retryBulkFailures(of: run)
        case .prompt(let prompt):
            prompt.retry()
        case .picker(let picker):
            picker.retry()
        case .recentChanges(let model):
            retryUndoFailures(in: model)
        case .list where mainView == .groups:
            groupsView.retry()
        case .list:
            if !list.retry() { detail.retry() }
        }
    }

    /// Enter (and `y` on a confirmation): the default action of the screen on top.
    public func confirm() {
        switch topScreen {
        case .error: retry()
        case .confirm(let confirm): confirm.confirm()
        case .form(let form): form.submit()
        case .help, .bulkSummary: close()
        case .choice: break
        case .export(let export): if !export.isRunning { remove(.export(export)) }
        case .importer(let model):
            switch model.phase {
            case .preview: model.start()
            case .mapping: model.finishMapping()
            case .askingGroups: model.answerGroups(create: true)
            case .finished: remove(.importer(model))
            case .running, .stopping: break
            }
        case .prompt(let prompt): prompt.submit()
        case .picker(let picker): picker.choose()
        case .recentChanges(let model): model.open()
        case .list:
            commitLine()
        }
    }

    /// Esc (and `n` on a confirmation): closes the screen on top. A form with changes asks
    /// first; a form being submitted waits for its answer.
    public func close() {
        switch topScreen {
        case .error, .help, .bulkSummary:
            screens.removeLast()
        case .choice(let choice):
            choice.cancel()
        case .confirm(let confirm):
            confirm.cancel()
        case .form(let form):
            guard !form.isSubmitting else { return }
            if form.isDirty { askToDiscard(form) } else { remove(.form(form)) }
        case .export(let export):
            if export.isRunning { export.cancel() } else { remove(.export(export)) }
        case .importer(let model):
            switch model.phase {
            case .preview, .finished: remove(.importer(model))
            case .mapping: model.cancelMapping()
            case .askingGroups: model.answerGroups(create: nil)
            case .running: model.stop()
            case .stopping: break
            }
        case .prompt(let prompt):
            guard !prompt.isSubmitting else { return }
            prompt.cancel()
        case .picker(let picker):
            picker.cancel()
        case .recentChanges(let model):
            if !model.back() { remove(.recentChanges(model)) }
        case .list:
            cancelLine()
        }
    }

    func askToDiscard(_ form: UserFormModel) {
        let confirm = ConfirmModel(
            title: "Discard changes?", message: "The form has changes that are not saved.",
            confirmLabel: "Discard", isDestructive: true, activity: activity)
        confirm.onFinish = { [weak self, weak confirm, weak form] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            if outcome == .confirmed, let form { remove(.form(form)) }
        }
        push(.confirm(confirm))
    }

    /// `o` (and Enter) on an error dialog that offers to open what was found: closes it and
    /// opens that. Returns false when the dialog on top offers nothing to open.
    @discardableResult
    public func openFound() -> Bool {
        guard case .error(let dialog) = topScreen, let open = dialog.openAction else { return false }
        remove(.error(dialog))
        open()
        return true
    }

    /// Shows the error dialog; one already on top is replaced rather than stacked. `open` is
    /// offered instead of a retry where sending again would be wrong.
    func presentError(title: String, error: APIError, retry: (@MainActor () -> Void)?,
                      open: (label: String, action: @MainActor () -> Void)? = nil) {
        nextID += 1
        let dialog = ErrorDialog(id: nextID, title: title, error: error, retryAction: retry, openLabel: open?.label, openAction: open?.action)
        if case .error = topScreen { screens.removeLast() }
        push(.error(dialog))
    }

    func push(_ screen: Screen) {
        screens.append(screen)
    }

    /// Removes `screen` and anything stacked above it.
    func remove(_ screen: Screen) {
        guard let index = screens.lastIndex(of: screen), index > 0 else { return }
        screens.removeSubrange(index...)
    }
}
