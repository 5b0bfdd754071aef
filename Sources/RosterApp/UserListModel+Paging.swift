import RosterKit

/// The page cache: asking for the pages the screen needs (and one screen ahead), dropping
/// the far ones, and loading them in the background.
extension UserListModel {
    /// Brings the cache in line with the viewport. Costs O(pages on a screen + cached pages).
    func loadVisiblePages() {
        // During a reload the screen waits for its answer; pages follow from the new results.
        guard reload == nil, let listing = state.value, listing.total > 0 else { return }
        let wanted = window.wantedPages(
            offset: scrollOffset, height: viewportHeight, total: listing.total, direction: direction)
        let limit = max(Self.maximumCachedPages, wanted.count)
        // A move inside pages already known (most keys): nothing to start, cancel or evict.
        if pageLoads.isEmpty, listing.pages.count <= limit, wanted.allSatisfy(listing.pages.keys.contains) { return }
        let wantedSet = Set(wanted)
        var pages = listing.pages
        var changed = false

        // Scrolled past before it arrived: stop asking, so holding PgDn does not queue requests.
        for (page, load) in pageLoads where !wantedSet.contains(page) {
            load.task.cancel()
            pageLoads[page] = nil
            pages[page] = nil
            changed = true
        }
        // A failed page stays failed until retried: scrolling does not hammer the server.
        var started: [Int] = []
        for page in wanted where pages[page] == nil {
            pages[page] = .loading(previous: nil)
            started.append(page)
            changed = true
        }
        let center = window.page(ofRow: selection)
        for page in PageWindow.evictions(cached: pages.keys, wanted: wantedSet, center: center, limit: limit) {
            pages[page] = nil
            changed = true
        }
        if changed { state.updateValue { $0.pages = pages } }
        // Pages on screen show placeholders and turn the spinner at once; pages fetched ahead
        // of the viewport are nobody's wait yet, so only a slow one turns it.
        let lastVisibleRow = min(scrollOffset + max(viewportHeight, 1), listing.total) - 1
        let visible = window.page(ofRow: scrollOffset)...window.page(ofRow: max(scrollOffset, lastVisibleRow))
        for page in started { startPageLoad(page, of: listing, inBackground: !visible.contains(page)) }
    }

    func startPageLoad(_ page: Int, of listing: Listing, inBackground: Bool = false) {
        nextPageLoadID += 1
        let id = nextPageLoadID
        let generation = listing.generation
        let query = listing.query(forPage: page)
        let directory = self.directory
        let task = activity.startLoad(spinnerAfter: inBackground ? Activity.backgroundGrace : .zero) { [weak self] in
            let result: Result<Page<User>, any Error>
            do { result = .success(try await directory.listUsers(query)) } catch { result = .failure(error) }
            self?.finishPageLoad(page, id: id, generation: generation, result: result)
        }
        pageLoads[page] = (id, task)
    }

    private func finishPageLoad(_ page: Int, id: Int, generation: Int, result: Result<Page<User>, any Error>) {
        // Evicted, superseded or replaced by a reload meanwhile: not ours to show.
        guard pageLoads[page]?.id == id, state.value?.generation == generation else { return }
        pageLoads[page] = nil
        switch result {
        case .success(let answer):
            let before = rowCount
            state.updateValue { listing in
                listing.pages[page] = .loaded(answer.items)
                // The directory changed since the first page: follow the server.
                listing.learnTotal(from: answer)
            }
            if rowCount != before {
                place(selection: selection, screenRow: selection - scrollOffset)
                loadVisiblePages()
            }
        case .failure(let error):
            if let failure = APIError.shown(for: error) {
                state.updateValue { $0.pages[page] = .failed(failure, previous: nil) }
            } else {
                state.updateValue { $0.pages[page] = nil } // cancelled: ask again when needed
            }
        }
        reportSelection()
    }

    /// Stops every page load (a reload replaces the results) and forgets their placeholders.
    func cancelPageLoads() {
        guard !pageLoads.isEmpty else { return }
        let pending = Array(pageLoads.keys)
        for load in pageLoads.values { load.task.cancel() }
        pageLoads = [:]
        state.updateValue { listing in
            for page in pending { listing.pages[page] = nil }
        }
    }

    /// Asks again for the failed pages (only `page`, when given); returns whether any was.
    func retryFailedPages(only page: Int? = nil) -> Bool {
        guard reload == nil, let listing = state.value else { return false }
        let failed = listing.pages
            .filter { $0.value.error != nil && (page == nil || $0.key == page) }
            .map(\.key)
            .sorted()
        guard !failed.isEmpty else { return false }
        state.updateValue { listing in
            for page in failed { listing.pages[page] = .loading(previous: nil) }
        }
        for page in failed { startPageLoad(page, of: listing) }
        return true
    }
}
