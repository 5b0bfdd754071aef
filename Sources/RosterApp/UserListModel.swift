import Observation
import RosterKit

/// The user list: a directory of any size, of which only a bounded window of pages around the
/// viewport is held. Every key operation costs work proportional to the screen (and the page
/// cache, which is bounded), never to the directory.
///
/// Loads of the whole list (first load, search, sort, refresh) are reloads: while one runs
/// and after one fails, the last good results stay on screen. Pages needed while scrolling
/// load in the background; one that fails becomes an error row with its own retry.
@MainActor
@Observable
public final class UserListModel {
    /// The pause after the last keystroke before a search is sent.
    public static let searchDebounce: Duration = .milliseconds(200)
    /// The most pages held at once (unless one screen alone needs more): memory stays flat
    /// however far the person scrolls.
    public static let maximumCachedPages = 24

    /// Rows per page asked of the server.
    public let perPage: Int
    /// The search as typed; its request follows after `searchDebounce`.
    public internal(set) var searchText = ""
    public internal(set) var sort: UserSort = .default
    /// The role, status and group the list is narrowed to; kept for the session.
    public internal(set) var filter = ListFilter()
    /// What is on screen, kept through reloads and after failures.
    public internal(set) var state: LoadState<Listing> = .idle
    /// The selected row (0-based). Not observed: a key that moves it draws its own frame, and
    /// a move made otherwise is told to `onMove`. Observation would cancel the last frame's
    /// registrations inside the key, before its bytes (docs/benchmarks.md, "Issue 28, sixteenth pass").
    @ObservationIgnored public internal(set) var selection = 0
    /// The first row on screen. Not observed, as `selection`.
    @ObservationIgnored public internal(set) var scrollOffset = 0
    /// How many rows the view shows; set by the view on layout.
    public internal(set) var viewportHeight = 0
    /// The users marked for a bulk action (`UserListModel+Marks`).
    public internal(set) var marks = Marks()
    /// How far the viewport moves when the selection steps off it.
    @ObservationIgnored public var scrollStyle: ScrollStyle = .line

    /// Told when the selection or the first row on screen moved (neither is observed).
    @ObservationIgnored public var onMove: (@MainActor () -> Void)?
    /// Told whenever the selected user changes: another row, or the row's page arrived.
    @ObservationIgnored public var onSelectedUserChange: (@MainActor (User?) -> Void)?
    /// Set by a main loop that draws a frame after each key: a move then tells
    /// `onSelectedUserChange` once that frame is sent (`reportPendingSelection`), not before
    /// it. The detail pane only re-arms its settle timer then, and a key's time is the time
    /// to its bytes (docs/benchmarks.md, "Issue 28, seventeenth pass").
    @ObservationIgnored public var reportsSelectionAfterFrame = false
    @ObservationIgnored var selectionReportPending = false
    /// Told when a reload fails (first load, search, sort, refresh): the error dialog.
    @ObservationIgnored public var onReloadFailure: (@MainActor (ListFailure) -> Void)?
    /// Told after each load, search, sort or refresh that succeeded.
    @ObservationIgnored public var onReloadSuccess: (@MainActor () -> Void)?

    @ObservationIgnored let directory: any Directory
    @ObservationIgnored let activity: Activity
    @ObservationIgnored let window: PageWindow
    /// Bumped by every reload started or abandoned: older answers are dropped.
    @ObservationIgnored var generation = 0
    @ObservationIgnored var reload: (request: ReloadRequest, task: TrackedTask)?
    /// The saved user the reload in flight will select, if it was asked to.
    public var userBeingSelected: String? {
        guard let request = reload?.request, request.selectsSavedUser else { return nil }
        return request.keepUserID
    }
    /// What `retry()` repeats when the last reload failed.
    @ObservationIgnored var failedReload: ReloadRequest?
    @ObservationIgnored var searchTimer: TrackedTask?
    @ObservationIgnored var pageLoads: [Int: (id: Int, task: TrackedTask)] = [:]
    @ObservationIgnored var nextPageLoadID = 0
    @ObservationIgnored var direction: PageWindow.Direction = .down
    @ObservationIgnored var reportedUser: User?

    /// `sort`: the order the list opens in (the `sort` setting; an LDAP directory's own order
    /// unless it says otherwise).
    public init(directory: any Directory, activity: Activity, perPage: Int = UserQuery.defaultPerPage, sort: UserSort = .default) {
        self.sort = sort
        let perPage = min(max(perPage, UserQuery.perPageRange.lowerBound), UserQuery.perPageRange.upperBound)
        self.directory = directory
        self.activity = activity
        self.perPage = perPage
        self.window = PageWindow(perPage: perPage)
    }

    // MARK: What the view reads

    /// How many rows the list has (0 until the first page arrives).
    public var rowCount: Int { state.value?.total ?? 0 }

    /// The row at `index`, or nil outside `0..<rowCount`. O(1).
    public func row(at index: Int) -> ListRow? {
        state.value?.row(at: index)
    }

    public var selectedRow: ListRow? { row(at: selection) }

    /// The selected user, if their page is loaded.
    public var selectedUser: User? { state.value?.user(at: selection) }

    /// The rows on screen.
    public var visibleRows: Range<Int> {
        scrollOffset ..< max(scrollOffset, min(rowCount, scrollOffset + pageHeight))
    }

    /// Whether a reload or a page is on its way.
    public var isLoading: Bool {
        state.isLoading || (state.value?.pages.values.contains { $0.isLoading } ?? false)
    }

    /// Whether some held page failed to load (its rows show as errors).
    public var hasFailedPages: Bool {
        state.value?.hasFailedPage ?? false
    }

    /// How many pages are held in memory.
    public var cachedPageCount: Int { state.value?.cachedPageCount ?? 0 }

    /// "1,234 / 100,000": the selected row's position, counted from 1; "41 / 100+" when the
    /// server has not said how many there are.
    public var positionLabel: String {
        let total = rowCount
        guard total > 0 else { return "0 / 0" }
        let more = state.value?.totalIsLowerBound == true ? "+" : ""
        return "\(CountFormat.grouped(selection + 1)) / \(CountFormat.grouped(total))\(more)"
    }

    // MARK: Loading

    /// The first load. Does nothing once the list has started loading.
    public func load() {
        guard case .idle = state, reload == nil, searchTimer == nil else { return }
        startReload(ReloadRequest(
            action: .load, search: searchText, sort: sort, filter: filter, pages: firstPages,
            keepUserID: nil, selection: 0, screenRow: 0))
    }

    /// The pages that fill the screen from the top.
    var firstPages: ClosedRange<Int> {
        window.pages(covering: 0..<pageHeight) ?? 1...1
    }

    var pageHeight: Int { max(1, viewportHeight) }

    func startReload(_ request: ReloadRequest) {
        searchTimer?.cancel()
        searchTimer = nil
        cancelReload()
        cancelPageLoads()
        failedReload = nil
        let generation = self.generation
        if !state.isLoading { state.startLoading() }
        let queries = request.pages.map {
            request.filter.applied(to: UserQuery(
                page: $0, perPage: perPage, search: request.search.isEmpty ? nil : request.search, sort: request.sort))
        }
        let directory = self.directory
        let task = activity.startLoad { [weak self] in
            do {
                let pages = try await Self.fetch(queries, from: directory)
                self?.finishReload(request, generation: generation, pages: pages)
            } catch {
                self?.failReload(request, generation: generation, error: error)
            }
        }
        reload = (request, task)
    }

    /// Abandons the reload in flight, if any: its answer, even if it still arrives, is dropped.
    func cancelReload() {
        generation += 1
        guard let reload else { return }
        reload.task.cancel()
        self.reload = nil
    }

    private func finishReload(_ request: ReloadRequest, generation: Int, pages: [Page<User>]) {
        guard generation == self.generation else { return }
        reload = nil
        var listing = Listing(
            search: request.search, sort: request.sort, filter: request.filter, total: pages.last?.total ?? 0,
            window: window, generation: generation)
        for (number, page) in zip(request.pages, pages) {
            listing.pages[number] = .loaded(page.items)
            listing.learnTotal(from: page)
        }
        let target = request.keepUserID.flatMap { listing.index(ofUserWithID: $0) } ?? request.selection
        state = .loaded(listing)
        place(selection: target, screenRow: request.screenRow)
        loadVisiblePages()
        reportSelection()
        onReloadSuccess?()
    }

    private func failReload(_ request: ReloadRequest, generation: Int, error: any Error) {
        guard generation == self.generation, let failure = APIError.shown(for: error) else { return }
        reload = nil
        failedReload = request
        state.fail(with: failure)
        // What is still on screen stays usable: it may need pages of its own.
        loadVisiblePages()
        onReloadFailure?(ListFailure(action: request.action, error: failure))
    }

    /// Several pages at once (a refresh of a screen spanning two pages); all or nothing.
    nonisolated static func fetch(_ queries: [UserQuery], from directory: any Directory) async throws -> [Page<User>] {
        if queries.count == 1 { return [try await directory.listUsers(queries[0])] }
        return try await withThrowingTaskGroup(of: (Int, Page<User>).self) { group in
            for (index, query) in queries.enumerated() {
                group.addTask { (index, try await directory.listUsers(query)) }
            }
            var pages = [Page<User>?](repeating: nil, count: queries.count)
            for try await (index, page) in group { pages[index] = page }
            return pages.compactMap { $0 }
        }
    }

    // MARK: Selection

    /// Tells the observer of a move the last key made, if it waited for the key's frame.
    public func reportPendingSelection() {
        guard selectionReportPending else { return }
        reportSelection()
    }

    /// Tells the observer when the selected user changed.
    func reportSelection() {
        selectionReportPending = false
        let user = selectedUser
        guard user != reportedUser else { return }
        reportedUser = user
        onSelectedUserChange?(user)
    }

    /// Selects `target` (clamped), keeping it `screenRow` rows below the top of the screen
    /// where possible.
    func place(selection target: Int, screenRow: Int) {
        let newSelection = rowCount == 0 ? 0 : min(max(0, target), rowCount - 1)
        set(selection: newSelection, offset: clampedOffset(newSelection - screenRow, keeping: newSelection))
    }

    /// `offset` moved to show `selection`, within the list: as little as needed, or half a
    /// screen further with `.halfScreen`.
    func clampedOffset(_ offset: Int, keeping selection: Int) -> Int {
        let height = pageHeight
        // Rows beyond the least the viewport must move to show the selection.
        let extra = scrollStyle == .halfScreen ? max(0, height / 2 - 1) : 0
        var offset = offset
        if selection < offset { offset = selection - extra }
        if selection >= offset + height { offset = selection - height + 1 + extra }
        return min(max(0, offset), max(0, rowCount - height))
    }

    /// Moves the selection and the viewport; tells `onMove` when either moved, so an idle
    /// keypress wakes nothing.
    func set(selection newSelection: Int, offset newOffset: Int) {
        guard newSelection != selection || newOffset != scrollOffset else { return }
        selection = newSelection
        scrollOffset = newOffset
        onMove?()
    }
}
