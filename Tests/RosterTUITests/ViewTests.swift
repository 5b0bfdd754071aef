import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

@Suite("Drawing views")
@MainActor
struct ViewTests {
    func listContent(_ users: [User], selected: Int? = 0, total: Int? = nil) -> ListContent {
        ListContent(rows: users.map { .user(UserRowContent($0)) }, firstIndex: 0, selectedIndex: selected, total: total ?? users.count,
                    sort: SortContent(.name))
    }

    @Test func listColumnsAlignForLatinCJKAndEmojiNames() throws {
        let canvas = grid(80, 12)
        UserListView.draw(listContent(mixedUsers), in: Rect(row: 0, column: 0, width: 80, height: 12), on: canvas)
        // Every email starts in the same display column, whatever the width of the name.
        let emailColumns = try mixedUsers.enumerated().map { offset, user in
            try #require(canvas.column(of: user.email, inRow: 2 + offset), "\(user.email) not drawn")
        }
        #expect(Set(emailColumns).count == 1, "emails start at columns \(emailColumns)")
        let roleColumns = try mixedUsers.enumerated().map { offset, user in
            try #require(canvas.column(of: user.role.rawValue, inRow: 2 + offset))
        }
        #expect(Set(roleColumns).count == 1, "roles start at columns \(roleColumns)")
        #expect(canvas.lines[1].contains("Name ↑"))
        #expect(canvas.lines[0].contains("1 / 6"))
    }

    @Test func aDirectoryWithoutRolesHasNoRoleColumnOrLineAndAnUnknownTotalSaysSo() throws {
        var content = listContent(mixedUsers, total: 100)
        content.showsRoles = false
        content.totalIsLowerBound = true
        let canvas = grid(80, 12)
        UserListView.draw(content, in: Rect(row: 0, column: 0, width: 80, height: 12), on: canvas)
        #expect(!canvas.lines[1].contains("Role"))
        #expect(canvas.lines[1].contains("Status"))
        #expect(!canvas.text.contains(" member "), "no role shown")
        #expect(canvas.lines[0].contains("1 / 100+"))

        var detail = DetailContent(user: mixedUsers[0])
        detail.showsRole = false
        let pane = grid(50, 14)
        DetailPane.draw(detail, spinner: nil, in: Rect(row: 0, column: 0, width: 50, height: 14), on: pane)
        #expect(!pane.text.contains("Role"))
        #expect(pane.text.contains("Status"))
    }

    @Test func theSelectedRowIsMarkedOnItsMarkerAndName() throws {
        let canvas = grid(80, 12)
        UserListView.draw(listContent(mixedUsers, selected: 3), in: Rect(row: 0, column: 0, width: 80, height: 12), on: canvas)
        let row = 2 + 3
        #expect(canvas.lines[row].hasPrefix("│▌" + mixedUsers[3].name))
        #expect(canvas.style(at: Point(row: row, column: 1)) == .selected)
        #expect(canvas.style(at: Point(row: row, column: 2)) == .selected)
        let emailColumn = try #require(canvas.lines[row].range(of: mixedUsers[3].email)).lowerBound
        let emailOffset = canvas.lines[row].distance(from: canvas.lines[row].startIndex, to: emailColumn)
        #expect(canvas.style(at: Point(row: row, column: emailOffset)) == .normal, "the rest of the row is drawn as any other")
        #expect(canvas.style(at: Point(row: row - 1, column: 1)) == .normal)
        #expect(!canvas.lines[row - 1].contains("▌"))
        #expect(canvas.lines[0].contains("4 / 6"))
    }

    @Test func theListCutsLongNamesWithAnEllipsisAndLargeCountsWithSeparators() {
        let long = User.fixture(id: "x", name: String(repeating: "Maximilian ", count: 10), email: "max@example.com")
        let canvas = grid(80, 6)
        UserListView.draw(ListContent(rows: [.user(UserRowContent(long))], firstIndex: 1233, selectedIndex: 1233, total: 100_000, sort: SortContent(.name)),
                          in: Rect(row: 0, column: 0, width: 80, height: 6), on: canvas)
        #expect(canvas.lines[2].contains("Maximilian Maximilian Ma… max@example.com"), "cut on the name column's edge, email in place")
        #expect(canvas.lines[0].contains("1,234 / 100,000"))
    }

    @Test func loadingShowsTheSpinnerInAnEmptyList() {
        let canvas = grid(80, 12)
        UserListView.draw(ListContent(rows: [], firstIndex: 0, selectedIndex: nil, total: nil, sort: SortContent(.name),
                                      emptyMessage: "Loading users…", spinner: "⠋"),
                          in: Rect(row: 0, column: 0, width: 80, height: 12), on: canvas)
        #expect(canvas.text.contains("⠋ Loading users…"))
        #expect(canvas.lines[0].contains("…"))
    }

    @Test func pagesStillLoadingArePlaceholdersAndAFailedPageSaysHowToRetry() {
        let canvas = grid(80, 8)
        let rows: [ListRowContent] = [.user(UserRowContent(mixedUsers[0])), .placeholder, .failed(message: "The server did not answer in time.", isFirstOfPage: true), .failed(message: "x", isFirstOfPage: false)]
        UserListView.draw(ListContent(rows: rows, firstIndex: 0, selectedIndex: 0, total: 4, sort: SortContent(.name)),
                          in: Rect(row: 0, column: 0, width: 80, height: 8), on: canvas)
        #expect(canvas.lines[3].contains("·····"))
        #expect(canvas.style(at: Point(row: 3, column: 2)) == .placeholder)
        #expect(canvas.lines[4].contains("✗ The server did not answer in time. Press r to retry."))
        #expect(canvas.style(at: Point(row: 4, column: 2)) == .error)
    }

    @Test func theErrorDialogSaysWhatFailedAndWhichKeysAct() throws {
        let canvas = grid(120, 40)
        let layout = try #require(ScreenLayout(size: Size(columns: 120, rows: 40)))
        DialogView.draw(DialogContent(title: "Could not load users", message: "The server is temporarily unavailable.",
                                      detail: "Retry in a moment.", actions: [("r", "Retry"), ("Esc", "Close")], isError: true),
                        layout: layout, on: canvas)
        let text = canvas.text
        #expect(text.contains("Could not load users"))
        #expect(text.contains("The server is temporarily unavailable."))
        #expect(text.contains("Retry in a moment."))
        #expect(text.contains(" r  Retry"))
        #expect(text.contains(" Esc  Close"))
        let title = try #require(canvas.find("Could not load users"))
        #expect(canvas.style(at: title) == .error)
    }

    @Test func theFormShowsEachFieldErrorUnderItsField() throws {
        let canvas = grid(120, 40)
        let layout = try #require(ScreenLayout(size: Size(columns: 120, rows: 40)))
        let form = FormContent(title: "New user", fields: [
            FormFieldContent(label: "Name", kind: .text(text: "", cursor: 0), error: "Name is required."),
            FormFieldContent(label: "Email", kind: .text(text: "ana@", cursor: 4), error: "Email must look like name@example.com."),
            FormFieldContent(label: "Role", kind: .picker(options: ["admin", "member", "viewer"], selected: 1)),
            FormFieldContent(label: "Status", kind: .picker(options: ["active", "suspended", "invited"], selected: 0)),
        ], focus: .field(1), submitLabel: "Create")
        FormView.draw(form, layout: layout, on: canvas)
        let name = try #require(canvas.find("Name "))
        let nameError = try #require(canvas.find("Name is required."))
        let email = try #require(canvas.find("Email "))
        let emailError = try #require(canvas.find("Email must look like name@example.com."))
        #expect(nameError.row == name.row + 1)
        #expect(emailError.row == email.row + 1)
        #expect(canvas.style(at: nameError) == .error)
        #expect(canvas.style(at: emailError) == .error)
        #expect(canvas.text.contains("[ Create ]"))
        #expect(canvas.text.contains("[ Cancel ]"))
        #expect(canvas.text.contains("member"))
        // The cursor sits after "ana@" in the focused email field.
        let typed = try #require(canvas.find("ana@"))
        #expect(canvas.cursor == Point(row: typed.row, column: typed.column + 4))
    }

    @Test func aFocusedPickerShowsItsArrows() throws {
        let canvas = grid(100, 30)
        let layout = try #require(ScreenLayout(size: Size(columns: 100, rows: 30)))
        FormView.draw(FormContent(title: "Edit", fields: [
            FormFieldContent(label: "Role", kind: .picker(options: ["admin", "member", "viewer"], selected: 2)),
        ], focus: .field(0), submitLabel: "Save"), layout: layout, on: canvas)
        #expect(canvas.text.contains("◀ viewer ▶"))
        #expect(canvas.cursor == nil)
    }

    @Test func aLongFieldScrollsToKeepTheCursorVisible() {
        TextWidth.activateUTF8Locale() // wcwidth measures CJK as two columns only in a UTF-8 locale
        let window = FormView.visibleWindow(of: String(repeating: "a", count: 50) + "XYZ", cursor: 53, width: 20)
        #expect(window.text.hasSuffix("XYZ"))
        #expect(window.cursorColumn == 19)
        let start = FormView.visibleWindow(of: "王小明", cursor: 1, width: 20)
        #expect(start.cursorColumn == 2)
    }

    @Test func helpListsEveryKey() throws {
        let canvas = grid(120, 40)
        let layout = try #require(ScreenLayout(size: Size(columns: 120, rows: 40)))
        HelpView.draw([HelpSection(title: "List", entries: [Hint("j / ↓", "Next user"), Hint("q", "Quit")])], layout: layout, on: canvas)
        #expect(canvas.text.contains("Keys"))
        #expect(canvas.text.contains("j / ↓"))
        #expect(canvas.text.contains("Next user"))
    }

    @Test func belowTheMinimumSizeOnlyTheTooSmallScreenIsShown() {
        #expect(ScreenLayout(size: Size(columns: 40, rows: 12)) == nil)
        let canvas = grid(40, 12)
        TooSmallView.draw(size: canvas.size, on: canvas)
        #expect(canvas.text.contains("Terminal too small"))
        #expect(canvas.text.contains("40×12; Roster needs 60×15."))
    }

    @Test func at80x24TheDetailPaneSitsBelowTheList() throws {
        let layout = try #require(ScreenLayout(size: Size(columns: 80, rows: 24)))
        #expect(!layout.detailBeside)
        #expect(layout.detail.row == layout.list.bottom)
        #expect(layout.detail.width == 80)
        let wide = try #require(ScreenLayout(size: Size(columns: 120, rows: 40)))
        #expect(wide.detailBeside)
        #expect(wide.detail.column == wide.list.right)
    }

    @Test func theDetailPaneShowsEveryField() throws {
        let canvas = grid(40, 12)
        DetailPane.draw(DetailContent(user: mixedUsers[0]), spinner: nil, in: Rect(row: 0, column: 0, width: 40, height: 12), on: canvas)
        let text = canvas.text
        for needle in ["Ana Silva", "ana@example.com", "admin", "active", "u1", "2023-11-14 22:13 UTC"] {
            #expect(text.contains(needle), "\(needle)")
        }
    }

    @Test func theDetailPaneShowsWhatASCIMServiceSentBeyondRostersFields() throws {
        var user = mixedUsers[0]
        user.scim = SCIMDetails(
            userName: "asilva", displayName: "Ana Silva", givenName: "Ana", familyName: "Silva",
            emails: ["ana@example.com", "ana@home.example"], phoneNumbers: ["+351 21 000 0000"],
            groups: ["Platform", "On call"], manager: "João Costa", version: #"W/"7""#)
        user.attributes = [.title: "Engineer", .department: "R&D", .employeeNumber: "701984"]
        let canvas = grid(50, 24)
        DetailPane.draw(DetailContent(user: user), spinner: nil, in: Rect(row: 0, column: 0, width: 50, height: 24), on: canvas)
        let text = canvas.text
        for needle in ["Username asilva", "Given    Ana", "Emails   ana@example.com, ana@home.example", "Title    Engineer",
                       "Groups   Platform, On call", "Dept.    R&D", "Emp. no. 701984", "Manager  João Costa", #"Version  W/"7""#] {
            #expect(text.contains(needle), "\(needle)")
        }
        #expect(!text.contains("Display"), "the display name is already the title line")
    }

    @Test func theHintBarLeavesOutWholeHintsThatDoNotFit() {
        let canvas = grid(30, 1)
        HintBar.draw([Hint("j/k", "Move"), Hint("/", "Search"), Hint("?", "Help")], in: Rect(row: 0, column: 0, width: 30, height: 1), on: canvas)
        #expect(canvas.lines[0] == " j/k  Move  /  Search")
    }
}
