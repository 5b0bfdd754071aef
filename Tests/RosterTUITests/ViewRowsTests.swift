import Foundation
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// The models' users and orders turned into the rows the views draw (ViewRows.swift,
/// DetailRecord.swift).
@Suite("View rows")
@MainActor
struct ViewRowsTests {
    @Test func aStatusOrRoleRosterDoesNotKnowIsShownAsSentDimAndNotAsAnAdmin() {
        let row = UserRowContent(User.fixture(role: Role(rawValue: "owner"), status: Status(rawValue: "locked")))
        #expect(row.role == "owner")
        #expect(!row.isAdmin)
        #expect(row.status == "locked")
        #expect(row.statusTone == .unknown)
        #expect(UserListView.statusStyle(row.statusTone) == .dim)
        #expect(UserRowContent(User.fixture(role: .admin, status: .suspended)).isAdmin)
        #expect(UserRowContent(User.fixture(status: .invited)).statusTone == .invited)
    }

    @Test func anOrderWithoutAColumnPutsNoArrowOnAColumnTitle() {
        let canvas = grid(80, 6)
        let content = ListContent(rows: [.user(UserRowContent(mixedUsers[0]))], firstIndex: 0, selectedIndex: 0, total: 1,
                                  sort: SortContent(.createdAtDescending))
        UserListView.draw(content, in: Rect(row: 0, column: 0, width: 80, height: 6), on: canvas)
        #expect(canvas.lines[0].contains("Users · created ↓"))
        #expect(!canvas.lines[1].contains("↑") && !canvas.lines[1].contains("↓"))
        #expect(SortContent(.emailDescending) == SortContent(label: "email ↓", column: .email, ascending: false))
    }

    /// A frame compares two positions' widths from their numbers (Format.countColumns): the
    /// same width the written text takes, for the list and the groups view's panes.
    @Test func positionWidthsAreCountedWithoutWritingThePosition() {
        let values = [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000, 999_999, 1_000_000, 12_345_678, Int.max, -1, -1_000, Int.min]
        for value in values {
            #expect(Format.countColumns(value) == TextWidth.columns(of: Format.count(value)), "\(value)")
        }
        for total in [nil, 0, 1, 41, 1_000, 100_000, 1_000_000] as [Int?] {
            for selected in [nil, 0, 8, 999, 99_998, 999_999] as [Int?] {
                for lowerBound in [false, true] {
                    var list = ListContent(rows: [], firstIndex: 0, selectedIndex: selected, total: total, sort: SortContent(.directory))
                    list.totalIsLowerBound = lowerBound
                    #expect(UserListView.positionColumns(list) == TextWidth.columns(of: UserListView.positionText(list)))
                    var pane = GroupsContent.Pane<String>(title: "Groups")
                    pane.selectedIndex = selected
                    pane.total = total
                    pane.totalIsLowerBound = lowerBound
                    #expect(GroupsView.positionColumns(pane) == TextWidth.columns(of: GroupsView.positionText(pane)))
                }
            }
        }
    }

    @Test func theDirectorysOwnOrderSaysSoInTheHeaderAndPutsNoArrowOnAColumn() {
        let canvas = grid(80, 6)
        var content = ListContent(rows: [.user(UserRowContent(mixedUsers[0]))], firstIndex: 0, selectedIndex: 0, total: 51,
                                  sort: SortContent(.directory))
        content.totalIsLowerBound = true
        UserListView.draw(content, in: Rect(row: 0, column: 0, width: 80, height: 6), on: canvas)
        #expect(canvas.lines[0].contains("Users · directory order"), "\(canvas.lines[0])")
        #expect(canvas.lines[0].contains("1 / 51+"))
        #expect(!canvas.lines[1].contains("↑") && !canvas.lines[1].contains("↓"))
    }

    @Test func theDetailRecordListsTheGroupsAndFollowsAChangedUser() {
        let memo = Memo<User, DetailContent>()
        var user = mixedUsers[0]
        user.groups = [GroupReference(id: "g1", name: "Sales"), GroupReference(id: "g2", name: "Ops")]
        let first = memo.value(for: user) { DetailContent(user: $0) }
        #expect(first.fields == [DetailContent.Field(label: "Groups", value: "Sales, Ops")])
        #expect(first.created == "2023-11-14 22:13 UTC")
        #expect(memo.value(for: user) { DetailContent(user: $0) } == first)

        user.name = "Ana Costa"
        #expect(memo.value(for: user) { DetailContent(user: $0) }.user.name == "Ana Costa", "another user, or the same one changed, is made anew")
    }
}
