import RosterApp

/// The list's visible rows as the view draws them, for the listing and window they were made
/// from. A key that moves the selection inside the screen changes neither, so its frame reuses
/// the rows instead of copying every visible user's texts again; and the view, handed the same
/// array as last frame, sees at once that only the selection moved (UserListView).
@MainActor
final class ListRowsMemo {
    private var last: (listing: Listing, visible: Range<Int>, rows: [ListRowContent])?
    /// How many times `make` ran: for the tests that hold a move to no new rows.
    private(set) var rowsMade = 0

    func rows(of listing: Listing?, visible: Range<Int>, make: () -> [ListRowContent]) -> [ListRowContent] {
        // Listing's == is quick for an unchanged listing: its pages share their storage.
        if let listing, let last, last.visible == visible, last.listing == listing { return last.rows }
        let rows = make()
        rowsMade += 1
        last = listing.map { ($0, visible, rows) }
        return rows
    }
}
