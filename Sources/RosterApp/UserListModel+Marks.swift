import RosterKit

/// Marks: one user at a time, or every user of the search and filters in force (whether their
/// pages are loaded or not). Each costs O(1): "all matching" is the query, not its users.
extension UserListModel {
    /// Whether the row at `index` is marked (false for a row whose page is not here).
    public func isMarked(row index: Int) -> Bool {
        markedRows(in: index..<index + 1).contains(index)
    }

    /// The rows of `range` whose users are marked. The listing and the marks are read once:
    /// asked row by row, a frame with marks copied both for every row on screen (16% of a `j`
    /// with 1,000 marks, perf).
    public func markedRows(in range: Range<Int>) -> Set<Int> {
        guard let listing = state.value else { return [] }
        let marks = self.marks
        guard !marks.isEmpty else { return [] }
        var marked = Set<Int>()
        for index in range {
            if let user = listing.user(at: index), marks.contains(user, in: listing) { marked.insert(index) }
        }
        return marked
    }

    /// Marks the selected user, or unmarks them. Returns false when no user is selected (its
    /// page is not loaded yet).
    @discardableResult
    func toggleMarkOnSelection() -> Bool {
        guard let listing = state.value, let user = listing.user(at: selection) else { return false }
        marks.toggle(user, in: listing)
        return true
    }

    /// Marks every user of the results shown: the server's count, not the loaded pages.
    /// Returns false when nothing is shown yet.
    @discardableResult
    func markAllMatching() -> Bool {
        // While another search or filter loads, the results shown are not what the person asked for.
        guard let listing = state.value, listing.total > 0, listing.answers(search: searchText, sort: sort, filter: filter)
        else { return false }
        marks.markAll(Marks.Query(
            search: listing.search, filter: listing.filter, sort: listing.sort, total: listing.total,
            totalIsLowerBound: listing.totalIsLowerBound))
        return true
    }

    func unmarkAll() {
        if !marks.isEmpty { marks.removeAll() }
    }

    /// Whether "all matching" is marked for other results than the ones shown.
    var marksAreForAnotherQuery: Bool {
        guard let query = marks.allMatching, let listing = state.value else { return false }
        return !query.describes(listing)
    }
}
