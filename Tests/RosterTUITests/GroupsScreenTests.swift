import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// The groups view through the real controller, presenter and views, drawn into a grid canvas:
/// what a person sees after Tab, at the sizes Roster runs at; and every partial frame equal to
/// a full redraw of the same state.
@Suite("Groups screen", .timeLimit(.minutes(5)))
@MainActor
struct GroupsScreenTests {
    let clock = ManualClock()
    let users: InMemoryDirectory
    let groups: InMemoryDirectory
    let model: AppModel
    let canvas: GridCanvas
    let controller: AppController

    init() async {
        users = InMemoryDirectory(users: (1...40).map { User.fixture(number: $0) } + mixedUsers, clock: clock)
        await users.setTraits(DirectoryTraits(dialect: .roster, hasGroups: true))
        groups = users
        let made = await groups.insertGroups(named: ["Sales", "Shift \u{1B}[31mNight\u{202E}", "王小明's team"])
        await groups.insertMembers(["u1", "u2", "user-0000003"], into: made[0].id)
        model = AppModel(directory: users, clock: clock)
        canvas = grid(80, 24)
        controller = AppController(model: model, canvas: canvas, serverLabel: "test server")
    }

    func press(_ keys: Key...) {
        controller.handle(keys.map(TerminalEvent.key))
        #expect(controller.movedFrameMismatches == 0, "a moved frame differed from the frame derived in full")
    }

    func press(_ key: Key, times: Int) {
        for _ in 0..<times { controller.handle([.key(key)]) }
        #expect(controller.movedFrameMismatches == 0, "a moved frame differed from the frame derived in full")
    }

    func settle() async {
        for _ in 0..<200 { await Task.yield() }
        await model.activity.waitForLoads()
    }


    /// Draws the current state afresh on a blank canvas and compares every cell.
    func matchesAFullRedraw(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        controller.render()
        let fresh = grid(canvas.size.columns, canvas.size.rows)
        ScreenRenderer(presenter: Presenter(model: model, serverLabel: "test server")).render(on: fresh)
        let differing = canvas.lines.indices.filter { canvas.cells[$0] != fresh.cells[$0] }
        #expect(differing.isEmpty, "after \(step), lines \(differing) differ:\n\(differing.map { "drawn: \(canvas.lines[$0])\nfull:  \(fresh.lines[$0])" }.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        #expect(canvas.cursor == fresh.cursor, "after \(step), the cursor", sourceLocation: sourceLocation)
    }

    func openGroups() async {
        controller.start()
        await settle()
        #expect(await eventuallyAfterYields { model.hasGroups })
        press(.tab)
        await settle()
    }

    @Test func tabShowsTheGroupsAndTheMembersOfTheSelectedOneAt80x24() async {
        await openGroups()
        #expect(await canvas.eventuallyShows("Members of Sales"))
        let text = canvas.text
        #expect(text.contains("Groups"))
        #expect(text.contains("王小明's team"))
        #expect(text.contains("Ana Silva"), "a member's name")
        #expect(text.contains("wang@example.cn"), "a member's email")
        #expect(text.contains(" 1 / 3 "), "the position among the groups")
        let hints = canvas.lines[23]
        for hint in ["Tab", "Users", "Help", "Quit", "New", "Rename"] {
            #expect(hints.contains(hint), "the hint bar offers \(hint): \(hints)")
        }
        press(.tab)
        #expect(await canvas.eventuallyShows("Users · name"))
    }

    @Test func namesAreSanitisedLikeTheUserList() async {
        await openGroups()
        let text = canvas.text
        #expect(text.contains("Shift"))
        #expect(!text.contains("\u{1B}"), "no escape sequence reaches the terminal")
        #expect(!text.contains("\u{202E}"), "no bidi override either")
    }

    @Test func theNarrowestHintBarKeepsHelpAndQuit() async {
        await openGroups()
        let bar = grid(40, 1)
        HintBar.draw(KeyBindings.hints(for: model), in: Rect(row: 0, column: 0, width: 40, height: 1), on: bar)
        #expect(bar.lines[0].contains("?  Help"), "\(bar.lines[0])")
        #expect(bar.lines[0].contains("q  Quit"), "\(bar.lines[0])")
        await users.failNext(.list, with: APIError.serviceUnavailable(retryAfter: nil, nil))
        await groups.failNext(.listGroups, with: APIError.serviceUnavailable(retryAfter: nil, nil))
        press(.character("R"))
        await settle()
        press(.escape) // the error dialog
        #expect(model.canRetry)
        let failing = grid(40, 1)
        HintBar.draw(KeyBindings.hints(for: model), in: Rect(row: 0, column: 0, width: 40, height: 1), on: failing)
        #expect(failing.lines[0].contains("r  Retry"), "\(failing.lines[0])")
        #expect(failing.lines[0].contains("q  Quit"), "\(failing.lines[0])")
    }

    @Test func theSmallestTerminalStillShowsBothPanes() async {
        canvas.resize(columns: 60, rows: 15)
        await openGroups()
        controller.handle([.resize(canvas.size)])
        #expect(await canvas.eventuallyShows("Members of Sales"))
        #expect(canvas.text.contains("Sales"))
        #expect(canvas.text.contains("Ana Silva"))
    }

    @Test func aAddsAMemberThroughThePicker() async {
        await openGroups()
        press(.character("G"))
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()
        #expect(await canvas.eventuallyShows("Members of 王小明's team"))
        press(.character("a"))
        await settle()
        #expect(await canvas.eventuallyShows("Add to 王小明's team"))
        for character in "Zoë" { press(.character(character)) }
        await clock.advance(by: UserListModel.searchDebounce)
        await settle()
        #expect(await canvas.eventuallyShows("zoe@example.se"))
        press(.enter)
        await settle()
        #expect(await canvas.eventuallyShows("Added Zoë Ångström to 王小明's team"))
        #expect(canvas.text.contains("Zoë Ångström"))
    }

    /// A move inside the members pane draws its two rows and its position, and nothing of the
    /// groups pane; a move in the groups pane likewise (the members follow only once it rests).
    @Test func aMoveInsideAPaneDrawsTwoRowsAndThePosition() async throws {
        await openGroups()
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()
        let layout = try #require(ScreenLayout(size: canvas.size))
        let topEdge = layout.body.row
        let firstRow = topEdge + 2
        let groupsWidth = GroupsView.groupsWidth(of: layout.body.width)

        canvas.forgetWrites()
        press(.character("j"))
        #expect(Set(canvas.writes.keys) == [topEdge, firstRow, firstRow + 1], "j in the groups: \(canvas.writes)")
        #expect((canvas.writes[firstRow] ?? 0) <= groupsWidth, "the members pane was drawn too")
        matchesAFullRedraw("j in the groups")
        press(.character("k"))
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()

        press(.enter)
        let presenter = controller.renderer.presenter
        let rowsMade = (presenter.groupRows.rowsMade, presenter.memberRows.rowsMade)
        canvas.forgetWrites()
        press(.character("j"))
        #expect(presenter.groupRows.rowsMade == rowsMade.0 && presenter.memberRows.rowsMade == rowsMade.1,
                "j derived a pane's rows again")
        #expect(Set(canvas.writes.keys) == [topEdge, firstRow, firstRow + 1], "j in the members: \(canvas.writes)")
        #expect((canvas.writes[topEdge] ?? 0) <= 12, "the top edges were drawn whole")
        #expect((canvas.writes[firstRow] ?? 0) <= layout.body.width - groupsWidth, "the groups pane was drawn too")
        // The marker and the name, not the email: under half the members pane's width.
        #expect((canvas.writes[firstRow + 1] ?? 0) <= (layout.body.width - groupsWidth) / 2, "the member's whole line was drawn")
        matchesAFullRedraw("j in the members")
    }

    /// The panes keep their rows from frame to frame (RowsMemo) while their items and window
    /// stand; a move out of the window, the members following, a resize or a search makes them
    /// again, and each frame shows the rows a full redraw shows.
    @Test func thePanesMakeTheirRowsAgainOnlyWhenTheirItemsOrWindowChange() async throws {
        let teams = await groups.insertGroups(named: (1...60).map { "Team \($0 < 10 ? "0" : "")\($0)" })
        await groups.insertMembers((1...40).map { User.fixture(number: $0).id }, into: teams[0].id)
        await openGroups()
        let presenter = controller.renderer.presenter
        var made = (groups: presenter.groupRows.rowsMade, members: presenter.memberRows.rowsMade)

        press(.character("j"))
        #expect(presenter.groupRows.rowsMade == made.groups && presenter.memberRows.rowsMade == made.members)
        press(.character("j"), times: 30)
        matchesAFullRedraw("j past the groups pane's bottom")
        #expect(presenter.groupRows.rowsMade > made.groups)
        #expect(presenter.memberRows.rowsMade == made.members, "the members followed before the selection rested")
        let selected = try #require(model.groupsView.selectedGroup)
        #expect(canvas.text.contains("▌\(selected.name)"))

        made.members = presenter.memberRows.rowsMade
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()
        matchesAFullRedraw("the members following the selection")
        #expect(presenter.memberRows.rowsMade > made.members)
        #expect(canvas.text.contains("Members of \(selected.name)"))

        canvas.resize(columns: 120, rows: 40)
        controller.handle([.resize(canvas.size)])
        matchesAFullRedraw("a resize")
        #expect(canvas.text.contains("▌\(selected.name)"))

        press(.home, .character("/"))
        for character in "Team 0" { press(.character(character)) }
        await settle()
        press(.enter)
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()
        matchesAFullRedraw("a search")
        #expect(canvas.text.contains("Team 01") && canvas.text.contains("Team 09"))
        #expect(!canvas.text.contains("Team 10") && !canvas.text.contains("Sales"))
        #expect(canvas.text.contains("Members of Team 01") && canvas.text.contains("User 0000001"))

        press(.enter)
        await settle()
        made.members = presenter.memberRows.rowsMade
        press(.character("j"), times: 3)
        #expect(presenter.memberRows.rowsMade == made.members, "j inside the members pane derived its rows again")
        matchesAFullRedraw("j in the members after the search")
    }

    @Test func everyGroupsStepLeavesTheScreenAFullRedrawWouldDraw() async {
        controller.start()
        await settle()
        #expect(await eventuallyAfterYields { model.hasGroups })
        matchesAFullRedraw("the users")
        press(.tab)
        matchesAFullRedraw("Tab, the groups loading")
        await settle()
        matchesAFullRedraw("the groups and the first group's members")
        press(.character("j"))
        matchesAFullRedraw("j: another group, the members not yet following")
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()
        matchesAFullRedraw("the members followed")
        press(.character("k"))
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()
        press(.enter)
        matchesAFullRedraw("Enter: the keys in the members")
        press(.character("j"))
        matchesAFullRedraw("j in the members")
        press(.escape)
        matchesAFullRedraw("Esc: back to the groups")
        press(.character("n"))
        matchesAFullRedraw("the new-group prompt")
        for character in "Ops" { press(.character(character)) }
        matchesAFullRedraw("typing a name")
        press(.escape)
        matchesAFullRedraw("the prompt closed")
        press(.character("a"))
        await settle()
        matchesAFullRedraw("the picker")
        press(.escape)
        matchesAFullRedraw("the picker closed")
        press(.character("d"))
        matchesAFullRedraw("the delete question")
        press(.character("n"))
        matchesAFullRedraw("the question answered no")
        press(.tab)
        matchesAFullRedraw("Tab back to the users")
        press(.character("j"))
        matchesAFullRedraw("j in the users after the groups")
        press(.tab)
        matchesAFullRedraw("Tab to the groups again")
    }
}
