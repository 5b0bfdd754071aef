/// Visible rows as a view draws them, for the source and window they were made from: the
/// list's rows for its `Listing`, a groups pane's for its items. A key that moves the selection
/// inside the screen changes neither, so its frame reuses the rows instead of copying every
/// visible row's texts again; and the view, handed the same array as last frame, sees at once
/// that only the selection moved (UserListView, GroupsView).
@MainActor
final class RowsMemo<Source: Equatable, Row> {
    private var last: (source: Source, visible: Range<Int>, rows: [Row])?
    /// How many times `make` ran: for the tests that hold a move to no new rows.
    private(set) var rowsMade = 0

    /// The rows of `visible` in `source`, made by `make` unless they were made for the same
    /// source and window; a nil source (nothing loaded) is not remembered.
    func rows(of source: Source?, visible: Range<Int>, make: () -> [Row]) -> [Row] {
        // The sources' == is quick when unchanged: a Listing's pages and an array of items
        // compare their storage first.
        if let source, let last, last.visible == visible, last.source == source { return last.rows }
        let rows = make()
        rowsMade += 1
        last = source.map { ($0, visible, rows) }
        return rows
    }
}
