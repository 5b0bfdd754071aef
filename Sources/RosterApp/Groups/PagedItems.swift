import Observation
import RosterKit

/// A list read page by page as the selection nears the end of what is loaded: the groups of
/// the groups view and the members of a group. Simpler than the user list's window (a
/// directory has hundreds of groups, and a group is read from its start), but still paged, so
/// opening a group of ten thousand costs one page.
///
/// Observable by hand rather than with `@Observable`: in a generic class every `\.items` the
/// macro writes into an accessor is a key path the runtime builds again at each access,
/// demangling `Item` to do it; that was 39% of a key in the groups view (`perf`). Here each
/// key path is made once, with the instance (`paths`).
@MainActor
public final class PagedItems<Item: Identifiable & Sendable & Equatable>: Observable where Item.ID == String {
    /// Reads one page (1-based) of `perPage` items.
    public typealias Fetch = @Sendable (_ page: Int, _ perPage: Int) async throws -> Page<Item>

    /// The first page: loading, loaded, failed. The value is whether anything was ever shown.
    public private(set) var state: LoadState<Int> {
        get { access(paths.state); return _state }
        set { mutate(paths.state) { _state = newValue } }
    }
    public private(set) var items: [Item] {
        get { access(paths.items); return _items }
        set { mutate(paths.items) { _items = newValue } }
        // In place, so `items[i] = item` and `items += page` do not copy the array.
        _modify {
            access(paths.items)
            registrar.willSet(self, keyPath: paths.items)
            defer { registrar.didSet(self, keyPath: paths.items) }
            yield &_items
        }
    }
    /// The selected row. Not observed, as the user list's (`UserListModel.selection`): a key
    /// draws its own frame, and a move is told to `onMove`.
    public private(set) var selection = 0 {
        didSet { if selection != oldValue { onMove?() } }
    }
    /// The first row shown, kept so the selection stays on screen. Not observed either.
    public private(set) var top = 0 {
        didSet { if top != oldValue { onMove?() } }
    }
    /// A later page that failed: the rows stop there until `retry()`.
    public private(set) var moreFailure: APIError? {
        get { access(paths.moreFailure); return _moreFailure }
        set { mutate(paths.moreFailure) { _moreFailure = newValue } }
    }
    public private(set) var isLoadingMore: Bool {
        get { access(paths.isLoadingMore); return _isLoadingMore }
        set { mutate(paths.isLoadingMore) { _isLoadingMore = newValue } }
    }

    private var _state: LoadState<Int> = .idle
    private var _items: [Item] = []
    private var _moreFailure: APIError?
    private var _isLoadingMore = false

    /// The observed properties' key paths, each built once, at the first access: building them
    /// resolves the generic arguments through the runtime's conformance tables, 0.75 ms of a
    /// start for the groups view's two lists that no start draws (perf).
    @MainActor private struct Paths {
        let state = \PagedItems.state
        let items = \PagedItems.items
        let moreFailure = \PagedItems.moreFailure
        let isLoadingMore = \PagedItems.isLoadingMore
    }
    private lazy var paths = Paths()
    private let registrar = ObservationRegistrar()

    private func access<Member>(_ path: KeyPath<PagedItems, Member>) {
        registrar.access(self, keyPath: path)
    }

    private func mutate<Member>(_ path: KeyPath<PagedItems, Member>, _ change: () -> Void) {
        registrar.withMutation(of: self, keyPath: path, change)
    }

    public let perPage: Int

    private let activity: Activity
    private var fetch: Fetch?
    private var work: TrackedTask?
    /// Which reload the running work belongs to: a stale answer is dropped.
    private var generation = 0
    private var viewportHeight = 10
    /// How far the rows move when the selection leaves them: as the user list does
    /// (`UserListModel.clampedOffset`), so a held j redraws a pane once per half screen.
    public var scrollStyle = ScrollStyle.line
    private var pagesLoaded = 0
    /// Told when the selection or the first row shown moved (neither is observed).
    public var onMove: (@MainActor () -> Void)?
    /// Told when the selected item changes (or the list empties).
    public var onSelectionChange: (@MainActor (Item?) -> Void)?
    /// Told when the first page fails.
    public var onFailure: (@MainActor (APIError) -> Void)?

    public init(perPage: Int, activity: Activity) {
        self.perPage = perPage
        self.activity = activity
    }

    /// How many there are, once the first page has said.
    public var total: Int? { state.value }
    public var selected: Item? { items.indices.contains(selection) ? items[selection] : nil }
    public var hasMore: Bool { items.count < (total ?? 0) }

    // MARK: Loading

    /// Reads from the first page again with `fetch` (or the last one given); keeps `selecting`
    /// selected when it is on the first pages read, else the same row.
    public func reload(_ fetch: Fetch? = nil, selecting id: String? = nil) {
        if let fetch { self.fetch = fetch }
        guard let current = self.fetch else { return }
        generation += 1
        let generation = self.generation
        work?.cancel()
        let wanted = id ?? selected?.id
        let keepRows = max(1, pagesLoaded)
        moreFailure = nil
        isLoadingMore = false
        state.startLoading()
        let perPage = self.perPage
        work = activity.startLoad { [weak self] in
            do {
                // Read as many pages as were shown, so a reload does not shrink the list.
                var loaded: [Item] = []
                var total = 0
                var page = 1
                repeat {
                    let answer = try await current(page, perPage)
                    loaded += answer.items
                    total = answer.total
                    page += 1
                } while page <= keepRows && loaded.count < total
                guard let self, generation == self.generation else { return }
                work = nil
                pagesLoaded = page - 1
                items = loaded
                state.succeed(with: total)
                select(loaded.firstIndex { $0.id == wanted } ?? min(selection, max(0, loaded.count - 1)), force: true)
            } catch {
                guard let self, generation == self.generation, let failure = APIError.shown(for: error) else { return }
                work = nil
                state.fail(with: failure)
                onFailure?(failure)
            }
        }
    }

    /// Empties the list (nothing to read: no group selected).
    public func clear() {
        generation += 1
        work?.cancel()
        work = nil
        fetch = nil
        items = []
        pagesLoaded = 0
        moreFailure = nil
        isLoadingMore = false
        state = .idle
        select(0, force: true)
    }

    /// Retries what failed: the first page, or the page after the last loaded. Returns whether
    /// anything had failed.
    @discardableResult
    public func retry() -> Bool {
        if state.error != nil {
            reload()
            return true
        }
        if moreFailure != nil {
            moreFailure = nil
            loadMoreIfNeeded()
            return true
        }
        return false
    }

    /// Replaces an item in place (a group renamed, its member count changed).
    public func replace(_ item: Item) {
        guard let index = items.firstIndex(where: { $0.id == item.id }), items[index] != item else { return }
        items[index] = item
        if index == selection { onSelectionChange?(item) }
    }

    private func loadMoreIfNeeded() {
        guard hasMore, !isLoadingMore, moreFailure == nil, state.error == nil, !state.isLoading,
              selection >= items.count - max(1, viewportHeight), let fetch else { return }
        isLoadingMore = true
        let generation = self.generation
        let page = pagesLoaded + 1
        let perPage = self.perPage
        work = activity.startLoad(spinnerAfter: Activity.backgroundGrace) { [weak self] in
            do {
                let answer = try await fetch(page, perPage)
                guard let self, generation == self.generation else { return }
                work = nil
                isLoadingMore = false
                pagesLoaded = page
                // Items that moved pages meanwhile would show twice: each shows once.
                let known = Set(items.map(\.id))
                items += answer.items.filter { !known.contains($0.id) }
                if answer.total != total { state.succeed(with: max(answer.total, items.count)) }
                loadMoreIfNeeded()
            } catch {
                guard let self, generation == self.generation, let failure = APIError.shown(for: error) else { return }
                work = nil
                isLoadingMore = false
                moreFailure = failure
            }
        }
    }

    // MARK: Moving

    public func setViewportHeight(_ height: Int) {
        viewportHeight = max(1, height)
        keepSelectionVisible()
    }

    public func moveDown() { select(selection + 1) }
    public func moveUp() { select(selection - 1) }
    public func pageDown() { select(selection + viewportHeight) }
    public func pageUp() { select(selection - viewportHeight) }
    public func moveToTop() { select(0) }
    /// The last row loaded; the next page follows as the selection reaches the end.
    public func moveToBottom() { select(items.count - 1) }

    public func select(row: Int) { select(row) }

    private func select(_ row: Int, force: Bool = false) {
        let before = selected?.id
        let clamped = min(max(0, row), max(0, items.count - 1))
        if clamped != selection { selection = clamped }
        keepSelectionVisible()
        if force || selected?.id != before { onSelectionChange?(selected) }
        loadMoreIfNeeded()
    }

    /// Reads the stored rows, not the observed `items`: a resize is no reason to build the key
    /// paths (`paths`) or to make a frame depend on the rows.
    private func keepSelectionVisible() {
        var newTop = top
        let extra = scrollStyle == .halfScreen ? max(0, viewportHeight / 2 - 1) : 0
        if selection < newTop { newTop = selection - extra }
        if selection >= newTop + viewportHeight { newTop = selection - viewportHeight + 1 + extra }
        newTop = max(0, min(newTop, max(0, _items.count - viewportHeight)))
        if newTop != top { top = newTop }
    }

    /// The rows on screen.
    public var visibleRows: Range<Int> {
        top..<min(items.count, top + viewportHeight)
    }
}
