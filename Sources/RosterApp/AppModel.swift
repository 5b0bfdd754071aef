import Observation
import RosterCSV
import RosterKit

/// The whole app as the front end sees it: the list and detail pane, the stack of what is on
/// screen above them, the search line, status messages, and one method per key binding.
/// Actions that make no sense for the screen on top are ignored, so a stray key never opens a
/// form behind a dialog.
@MainActor
@Observable
public final class AppModel {
    /// How long a status message stays.
    public static let statusMessageDuration: Duration = .seconds(3)

    public let activity: Activity
    public let list: UserListModel
    public let detail: UserDetailModel
    /// The groups view, where the directory's groups can be managed (nil: no group directory).
    public let groupsView: GroupsViewModel?
    /// Which view the base layer shows; `Tab` switches (AppModel+Groups).
    public internal(set) var mainView = MainView.users
    /// Bottom to top; the first is always `.list`.
    public private(set) var screens: [Screen] = [.list]
    public private(set) var statusMessage: StatusMessage?
    /// What the directory can do, learnt after each load (a SCIM service may not sort, or may
    /// search only by prefix).
    public private(set) var traits = DirectoryTraits.rosterAPI
    /// The line being typed at the bottom of the screen (search, filter, a group, a file), if
    /// one is open (AppModel+LineEditor).
    public internal(set) var line: LineEditor?
    /// The bulk run going on, or the last one until its summary is closed (`AppModel+Bulk`).
    public internal(set) var bulkRun: BulkRun?
    /// The last run ended with failures while something else was on top: `b` shows its summary.
    public internal(set) var bulkSummaryPending = false
    /// The columns an export writes (the `exportColumns` setting).
    @ObservationIgnored public var exportColumns: [CSVColumn] = CSVColumn.defaultSelection
    /// Users per page an export asks for.
    @ObservationIgnored public var exportPageSize = ExportModel.defaultPageSize
    /// What the prompt of `i` offers next time: the file imported last.
    @ObservationIgnored var lastImportPath = ""
    /// Set by `quit()`: the front end leaves its loop.
    public private(set) var isQuitRequested = false
    /// Set when the app stops with a changed form it could not ask about (SIGTERM, SIGHUP, a
    /// second Ctrl-C): the front end saves `unsavedDraft` for the next start.
    public internal(set) var keepsDraftOnExit = false

    /// The one directory every model reads and writes through.
    @ObservationIgnored let directory: any Directory
    /// Where `y` puts text: the terminal's clipboard (OSC 52); nil where there is none.
    @ObservationIgnored let clipboard: (any Clipboard)?
    /// The group lookup of the filter line in flight.
    @ObservationIgnored var groupLookup: TrackedTask?
    /// The "Quit without saving?" question while it is up.
    @ObservationIgnored weak var quitQuestion: ConfirmModel?
    /// Requests a bulk run sends at once. Fewer where the server shares this machine's cores
    /// (the embedded one): there a run's work is the server's too, and competes with the keys.
    @ObservationIgnored public var bulkConcurrency = BulkRun.concurrency
    /// Told when a bulk run ends, however it ends: the front end writes it to the log.
    @ObservationIgnored public var onBulkRunFinished: (@MainActor (BulkRun) -> Void)?
    /// Quit was confirmed during a bulk run: quit once its requests in flight are answered.
    @ObservationIgnored var quitsAfterBulk = false
    @ObservationIgnored var quitsAfterImport = false
    /// The search in force when `/` opened the line: Esc goes back to it.
    @ObservationIgnored var searchBeforeEditing = ""
    @ObservationIgnored private var messageExpiry: Task<Void, Never>?
    @ObservationIgnored private var nextID = 0

    public init(
        directory: any Directory, clock: any Clock<Duration> = ContinuousClock(),
        perPage: Int = UserQuery.defaultPerPage, scrollStyle: ScrollStyle = .line, clipboard: (any Clipboard)? = nil
    ) {
        self.directory = directory
        self.clipboard = clipboard
        let activity = Activity(clock: clock)
        self.activity = activity
        list = UserListModel(directory: directory, activity: activity, perPage: perPage)
        list.scrollStyle = scrollStyle
        detail = UserDetailModel(directory: directory, activity: activity)
        groupsView = GroupsViewModel(directory: directory, activity: activity, perPage: perPage)
        list.onSelectedUserChange = { [weak self] user in
            self?.detail.show(user)
        }
        list.onReloadSuccess = { [weak self] in
            self?.learnTraits()
        }
        list.onReloadFailure = { [weak self] failure in
            self?.presentError(title: failure.title, error: failure.error) { [weak self] in
                self?.list.retry()
            }
        }
        wireGroupsView()
    }

    /// Asks the directory what it can do, and says so when a search means less than usual.
    func learnTraits() {
        let directory = self.directory
        Task { [weak self] in
            let learnt = await directory.traits()
            guard let self else { return }
            let searched = !list.searchText.isEmpty
            if traits != learnt { traits = learnt }
            startGroupsIfShown()
            if searched, let limitation = learnt.searchLimitation {
                showStatus(limitation.prefix(1).uppercased() + limitation.dropFirst(), kind: .warning)
            }
        }
    }

    // MARK: What the view reads

    public var topScreen: Screen { screens.last ?? .list }

    /// The spinner shows while this is true.
    public var isLoading: Bool { activity.isBusy }

    /// Whether `retry()` would do something on the screen on top.
    public var canRetry: Bool {
        switch topScreen {
        case .error(let dialog): dialog.canRetry
        case .confirm(let confirm): if case .failed = confirm.phase { true } else { false }
        case .form(let form): if case .failed = form.submission { true } else { false }
        case .help, .choice, .importer: false
        case .export(let export): export.canRetry
        case .bulkSummary(let run): !run.failures.isEmpty || run.findError != nil
        case .prompt(let prompt): prompt.phase.isFailed
        case .picker(let picker): picker.choices.error != nil || { if case .failed = picker.phase { true } else { false } }()
        case .list where mainView == .groups: groupsView?.hasFailure == true
        case .list: list.state.error != nil || list.hasFailedPages || detail.state.error != nil
        }
    }

    // MARK: Start and stop

    /// Loads the first page.
    public func start() {
        list.load()
    }

    public func quit() {
        isQuitRequested = true
    }

    /// Stops, keeping what a changed form holds for the next start (`unsavedDraft`).
    public func quitKeepingDraft() {
        keepsDraftOnExit = unsavedDraft != nil
        isQuitRequested = true
    }

    // MARK: The list (acting only when the list is on top)

    public func setListViewport(height: Int) { list.setViewportHeight(height) }
    public func moveDown() { if listOnTop { list.moveDown() } }
    public func moveUp() { if listOnTop { list.moveUp() } }
    public func pageDown() { if listOnTop { list.pageDown() } }
    public func pageUp() { if listOnTop { list.pageUp() } }
    public func moveToTop() { if listOnTop { list.moveToTop() } }
    public func moveToBottom() { if listOnTop { list.moveToBottom() } }
    public func select(row: Int) { if listOnTop { list.select(row: row) } }
    public func scroll(by rows: Int) { if listOnTop { list.scroll(by: rows) } }

    public func cycleSort() {
        guard listIdle else { return }
        guard traits.canSort else {
            showStatus("This server cannot sort: the list is in its own order", kind: .warning)
            return
        }
        list.cycleSort()
    }
    public func refresh() {
        guard listIdle else { return }
        if mainView == .groups { groupsView?.refresh() } else { list.refresh() }
    }

    var listOnTop: Bool { screens.count == 1 }
    /// The list is on top and no line is being typed.
    var listIdle: Bool { listOnTop && line == nil }

    // MARK: Users

    /// `n`: the create form.
    public func newUser() {
        guard listIdle else { return }
        push(.form(makeForm(.create)))
    }

    /// The user `e`, `S` and `d` act on: the selected row's, in the freshest copy we have. Right
    /// after a save the list reloads to select the saved user while the detail pane already
    /// shows it; until the reload lands, the keys act on that user, not the row selected before.
    var userKeysActOn: User? {
        if let pending = list.userBeingSelected, let shown = detail.user, shown.id == pending { return shown }
        guard let selected = list.selectedUser else { return nil }
        return detail.user?.id == selected.id ? detail.user ?? selected : selected
    }

    /// `e`: the edit form for the selected user, with the freshest copy we have.
    public func editSelected() {
        guard listIdle else { return }
        guard let user = userKeysActOn else {
            showStatus("No user selected", kind: .warning)
            return
        }
        push(.form(makeForm(.edit(user))))
    }

    /// `S`: suspends the selected user, or reactivates a suspended one. One key and no question:
    /// pressing it again undoes it.
    public func toggleSuspended() {
        guard listIdle else { return }
        if !list.marks.isEmpty { return askBulk(.suspend) }
        guard let user = userKeysActOn else {
            showStatus("No user selected", kind: .warning)
            return
        }
        var draft = user.draft
        draft.status = user.status == .suspended ? .active : .suspended
        let verb = draft.status == .suspended ? "Suspended" : "Reactivated"
        let directory = self.directory
        _ = activity.startLoad { [weak self] in
            do {
                let saved = try await directory.updateUser(id: user.id, with: draft)
                guard let self else { return }
                showStatus("\(verb) \(saved.name)")
                list.refresh(selecting: saved.id)
                detail.showSaved(saved)
            } catch {
                guard let self, let failure = APIError.shown(for: error) else { return }
                let title = draft.status == .suspended ? "Could not suspend \(user.name)" : "Could not reactivate \(user.name)"
                presentError(title: title, error: failure) { [weak self] in self?.toggleSuspended() }
            }
        }
    }

    /// `d`: asks before deleting the selected user.
    public func deleteSelected() {
        guard listIdle else { return }
        if !list.marks.isEmpty { return askBulk(.delete) }
        guard let user = userKeysActOn else {
            showStatus("No user selected", kind: .warning)
            return
        }
        let directory = self.directory
        let confirm = ConfirmModel(
            title: "Delete user", message: "Delete \(user.name) <\(user.email)>? This cannot be undone.",
            confirmLabel: "Delete", isDestructive: true, activity: activity,
            action: { try await directory.deleteUser(id: user.id) })
        confirm.onFinish = { [weak self, weak confirm] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            if outcome == .confirmed {
                showStatus("Deleted \(user.name)")
                list.refresh()
            }
        }
        push(.confirm(confirm))
    }

    func makeForm(_ mode: FormMode) -> UserFormModel {
        let form = UserFormModel(mode: mode, directory: directory, activity: activity, traits: traits)
        form.onSaved = { [weak self, weak form] user in
            guard let self, let form else { return }
            remove(.form(form))
            if case .create = mode { showStatus("Created \(user.name)") } else { showStatus("Saved \(user.name)") }
            list.refresh(selecting: user.id)
            detail.showSaved(user)
        }
        form.onConflict = { [weak self, weak form] conflict in
            guard let self, let form else { return }
            let confirm = ConfirmModel(
                title: "Someone changed \(conflict.original.name)",
                message: "Changed on the server since you opened it: \(conflict.summary). Apply your edits to the server's version?",
                confirmLabel: "Apply my edits", activity: activity,
                action: { [weak form] in
                    form?.rebase(onto: conflict.server)
                    form?.submit()
                })
            confirm.onFinish = { [weak self, weak confirm] _ in
                guard let self, let confirm else { return }
                remove(.confirm(confirm))
            }
            push(.confirm(confirm))
        }
        form.onFailure = { [weak self, weak form] error in
            guard let self, let form else { return }
            let title = if case .edit(let user) = mode { "Could not save \(user.name)" } else { "Could not create the user" }
            presentError(title: title, error: error) { [weak form] in form?.retry() }
        }
        return form
    }

    // MARK: Dialogs and help

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
        case .list where mainView == .groups:
            groupsView?.retry()
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
            case .finished: remove(.importer(model))
            case .running, .stopping: break
            }
        case .prompt(let prompt): prompt.submit()
        case .picker(let picker): picker.choose()
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
            case .running: model.stop()
            case .stopping: break
            }
        case .prompt(let prompt):
            guard !prompt.isSubmitting else { return }
            prompt.cancel()
        case .picker(let picker):
            picker.cancel()
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

    /// Shows the error dialog; one already on top is replaced rather than stacked.
    func presentError(title: String, error: APIError, retry: (@MainActor () -> Void)?) {
        nextID += 1
        let dialog = ErrorDialog(id: nextID, title: title, error: error, retryAction: retry)
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

    // MARK: Status messages

    /// Drops the message shown, so what it covered (a bulk run's progress line) shows at once.
    func clearStatus() {
        messageExpiry?.cancel()
        if statusMessage != nil { statusMessage = nil }
    }

    /// Shows a short message that goes away after `statusMessageDuration`.
    public func showStatus(_ text: String, kind: StatusMessage.Kind = .info) {
        nextID += 1
        let message = StatusMessage(id: nextID, text: text, kind: kind)
        statusMessage = message
        messageExpiry?.cancel()
        // Not tracked by `activity`: a message waiting to expire is not work in progress.
        let sleep = ClockSleep.sleeper(on: activity.clock, after: Self.statusMessageDuration)
        messageExpiry = Task { [weak self] in
            guard (try? await sleep()) != nil, !Task.isCancelled, let self else { return }
            if statusMessage?.id == message.id { statusMessage = nil }
        }
    }
}
