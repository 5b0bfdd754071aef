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
