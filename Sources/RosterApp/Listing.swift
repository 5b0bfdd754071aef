import RosterKit

/// One row of the list, as the view draws it.
public enum ListRow: Sendable, Equatable {
    case user(User)
    /// Its page is on the way: draw a placeholder.
    case loading
    /// Its page could not be loaded: draw the error in place; `retryRow(at:)` asks again.
    case failed(APIError)
}

/// What the list shows: the results of one query, of which only a window of pages is held.
public struct Listing: Sendable, Equatable {
    /// The search these results are for ("" for everyone).
    public let search: String
    public let sort: UserSort
    /// The role, status and group these results are narrowed to.
    public let filter: ListFilter
    /// How many users match, across all pages.
    public internal(set) var total: Int
    /// True when the server has not said how many match (some SCIM services): `total` is what
    /// is known so far, at least one more than was seen, until a short page shows the end.
    public internal(set) var totalIsLowerBound = false

    let window: PageWindow
    /// Which reload produced these results: answers for older ones are dropped.
    let generation: Int
    /// Held pages by 1-based number; pages not here are neither loaded nor asked for.
    var pages: [Int: LoadState<[User]>] = [:] {
        didSet { hasFailedPage = pages.values.contains { $0.isFailed } }
    }
    /// Whether a held page failed to load: kept with `pages`, which change once per page
    /// load, since the hint bar asks on every frame (a scan copied each page's rows).
    private(set) var hasFailedPage = false

    init(search: String, sort: UserSort, filter: ListFilter, total: Int, window: PageWindow, generation: Int) {
        self.search = search
        self.sort = sort
        self.filter = filter
        self.total = total
        self.window = window
        self.generation = generation
    }

    /// Takes in the total a page came with. An exact total replaces a guess; a guess only
    /// raises what is known, since an earlier page's answer may arrive after a later one's.
    mutating func learnTotal(from page: Page<User>) {
        if !page.totalIsLowerBound {
            total = page.total
            totalIsLowerBound = false
        } else if totalIsLowerBound || page.total >= total {
            total = max(total, page.total)
            totalIsLowerBound = true
        }
    }

    /// How many pages are held in memory (loaded, loading or failed).
    public var cachedPageCount: Int { pages.count }

    /// The row at `index`, or nil outside `0..<total`.
    public func row(at index: Int) -> ListRow? {
        guard index >= 0, index < total else { return nil }
        let page = window.page(ofRow: index)
        let state = pages[page]
        if let items = state?.value {
            let offset = index - window.rows(ofPage: page).lowerBound
            return offset < items.count ? .user(items[offset]) : .loading
        }
        if let error = state?.error { return .failed(error) }
        return .loading
    }

    public func user(at index: Int) -> User? {
        if case .user(let user)? = row(at: index) { return user }
        return nil
    }

    /// Where the user with `id` is among the held pages.
    func index(ofUserWithID id: String) -> Int? {
        for (page, state) in pages {
            if let offset = state.value?.firstIndex(where: { $0.id == id }) {
                return window.rows(ofPage: page).lowerBound + offset
            }
        }
        return nil
    }

    /// The query that fetches `page` of these results.
    func query(forPage page: Int) -> UserQuery {
        filter.applied(to: UserQuery(page: page, perPage: window.perPage, search: search.isEmpty ? nil : search, sort: sort))
    }

    /// Whether these results answer `search`, `sort` and `filter`.
    func answers(search: String, sort: UserSort, filter: ListFilter) -> Bool {
        self.search == search && self.sort == sort && self.filter == filter
    }
}
