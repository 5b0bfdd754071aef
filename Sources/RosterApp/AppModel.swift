import Observation
import RosterJournal
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
    /// The selected user's history, where the directory keeps one (`h`).
    public let history: UserHistoryModel
    /// The groups view, where the directory's groups can be managed (nil: no group directory).
    public let groupsView: GroupsViewModel
    /// Which view the base layer shows; `Tab` switches (AppModel+Groups).
    public internal(set) var mainView = MainView.users
    /// Bottom to top; the first is always `.list`.
    public internal(set) var screens: [Screen] = [.list]
    public internal(set) var statusMessage: StatusMessage?
    /// What the directory can do, learnt after each load (a SCIM service may not sort, or may
    /// search only by prefix).
    public private(set) var traits = DirectoryTraits.rosterAPI
    /// The line being typed at the bottom of the screen (search, filter, a group, a file), if
    /// one is open (AppModel+LineEditor).
    public internal(set) var line: LineEditor?
    /// The bulk run going on, or the last one until its summary is closed (`AppModel+Bulk`).
    public internal(set) var bulkRun: BulkRun?
    /// The undo going on, or the last one (AppModel+Journal).
    public internal(set) var undoRun: UndoRun?
    /// The last run ended with failures while something else was on top: `b` shows its summary.
    public internal(set) var bulkSummaryPending = false
    /// The columns an export writes (the `exportColumns` setting).
    @ObservationIgnored public var exportColumns: [CSVColumn] = CSVColumn.defaultSelection
    /// Where the import preview keeps the columns a person mapped, per header set; nil keeps none.
    @ObservationIgnored public var importMappings: ImportMappingStore?
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
    /// The same, for a front end that builds on this connection (an access review reads it).
    public var connectionDirectory: any Directory { directory }
    /// Where every write is journalled (AppModel+Journal); `.none` until the front end opens
    /// the journal.
    @ObservationIgnored public var recorder = ChangeRecorder.none
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
    @ObservationIgnored var messageExpiry: Task<Void, Never>?
    /// Numbers dialogs and messages, so a message expires only if it is still the one shown.
    @ObservationIgnored var nextID = 0

    public init(
        directory: any Directory, clock: any Clock<Duration> = ContinuousClock(),
        perPage: Int = UserQuery.defaultPerPage, sort: UserSort = .default, scrollStyle: ScrollStyle = .line,
        clipboard: (any Clipboard)? = nil
    ) {
        self.directory = directory
        self.clipboard = clipboard
        let activity = Activity(clock: clock)
        self.activity = activity
        list = UserListModel(directory: directory, activity: activity, perPage: perPage, sort: sort)
        list.scrollStyle = scrollStyle
        detail = UserDetailModel(directory: directory, activity: activity)
        history = UserHistoryModel(directory: directory, activity: activity)
        groupsView = GroupsViewModel(directory: directory, activity: activity, perPage: perPage)
        groupsView.groups.scrollStyle = scrollStyle
        groupsView.members.scrollStyle = scrollStyle
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

    /// What the directory said it can do, from whichever asked.
    func adopt(_ learnt: DirectoryTraits) {
        if traits != learnt { traits = learnt }
    }

    /// Asks the directory what it can do, and says so when a search means less than usual.
    func learnTraits() {
        let directory = self.directory
        Task { [weak self] in
            let learnt = await directory.traits()
            guard let self else { return }
            let searched = !list.searchText.isEmpty
            adopt(learnt)
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
        case .recentChanges(let model): !model.failuresToRetry.isEmpty
        case .export(let export): export.canRetry
        case .bulkSummary(let run): !run.failures.isEmpty || run.findError != nil
        case .prompt(let prompt): prompt.phase.isFailed
        case .picker(let picker): picker.choices.error != nil || { if case .failed = picker.phase { true } else { false } }()
        case .list where mainView == .groups: groupsView.hasFailure == true
        case .list: list.state.isFailed || list.hasFailedPages || detail.state.isFailed
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
}
