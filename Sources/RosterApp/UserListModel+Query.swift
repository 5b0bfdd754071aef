import RosterKit

/// Search, sort, refresh and retry: what changes the results rather than the view of them.
extension UserListModel {
    /// Sets the search as typed. The request follows `searchDebounce` after the last call; a
    /// newer search cancels an older one, so only the latest query's results are ever shown.
    public func setSearch(_ text: String) {
        guard text != searchText else { return }
        searchText = text
        searchTimer?.cancel()
        searchTimer = nil
        cancelReload()
        failedReload = nil
        if let listing = state.value, listing.answers(search: text, sort: sort, filter: filter) {
            // Back to what is on screen: nothing to ask.
            if case .loaded = state {} else { state = .loaded(listing) }
            loadVisiblePages()
            return
        }
        if !state.isLoading { state.startLoading() }
        searchTimer = activity.schedule(after: Self.searchDebounce) { [weak self] in
            guard let self else { return }
            searchTimer = nil
            startSearch()
        }
    }

    /// Sends the typed search now instead of after the pause (Enter in the search line).
    public func applySearchNow() {
        guard let timer = searchTimer else { return }
        timer.cancel()
        searchTimer = nil
        startSearch()
    }

    private func startSearch() {
        startReload(ReloadRequest(
            action: .search(searchText), search: searchText, sort: sort, filter: filter, pages: firstPages,
            keepUserID: nil, selection: 0, screenRow: 0))
    }

    /// The next order of the cycle (name ↑, name ↓, email ↑, …, and the directory's own order
    /// where it is offered).
    public func cycleSort(includingDirectoryOrder: Bool = false) {
        setSort(sort.next(includingDirectoryOrder: includingDirectoryOrder))
    }

    public func setSort(_ newSort: UserSort) {
        guard newSort != sort else { return }
        sort = newSort
        startReload(ReloadRequest(
            action: .sort(newSort), search: searchText, sort: newSort, filter: filter, pages: firstPages,
            keepUserID: nil, selection: 0, screenRow: 0))
    }

    /// Narrows the list to `newFilter` (with the search in force), from the top. The server
    /// filters; the filter stays for the session, through searches, sorts and refreshes.
    public func setFilter(_ newFilter: ListFilter) {
        guard newFilter != filter else { return }
        filter = newFilter
        startReload(ReloadRequest(
            action: .filter(newFilter), search: searchText, sort: sort, filter: newFilter, pages: firstPages,
            keepUserID: nil, selection: 0, screenRow: 0))
    }

    /// Reloads the rows on screen, keeping the selection on the same user when they are
    /// still there (or on `userID`, e.g. a user just saved), else on the same row.
    public func refresh(selecting userID: String? = nil) {
        guard let listing = state.value, listing.answers(search: searchText, sort: sort, filter: filter) else {
            // Nothing on screen yet, or it is for another query: load that query from the top.
            startReload(ReloadRequest(
                action: state.value == nil ? .load : .search(searchText), search: searchText, sort: sort, filter: filter,
                pages: firstPages, keepUserID: userID, selectsSavedUser: userID != nil, selection: 0, screenRow: 0))
            return
        }
        let visible = scrollOffset ..< max(scrollOffset + 1, min(listing.total, scrollOffset + pageHeight))
        startReload(ReloadRequest(
            action: .refresh, search: listing.search, sort: listing.sort, filter: listing.filter,
            pages: window.pages(covering: visible) ?? 1...1,
            keepUserID: userID ?? selectedUser?.id, selectsSavedUser: userID != nil, selection: selection, screenRow: selection - scrollOffset))
    }

    /// Repeats exactly what failed: the failed reload, else every page that failed.
    /// Returns whether anything was retried.
    @discardableResult
    public func retry() -> Bool {
        if let request = failedReload, state.error != nil {
            // A refresh is redone for the screen as it is now: the person may have moved
            // since it failed, and the selection they made is the one to keep.
            if request.action == .refresh { refresh() } else { startReload(request) }
            return true
        }
        return retryFailedPages()
    }

    /// Asks again for the failed page holding `index` (an error row's own retry).
    @discardableResult
    public func retryRow(at index: Int) -> Bool {
        guard case .failed? = row(at: index) else { return false }
        return retryFailedPages(only: window.page(ofRow: index))
    }
}
