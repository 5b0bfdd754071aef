import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// A frame redraws only what changed (ScreenRenderer). Whatever the path through the app, the
/// screen it leaves must be exactly the screen a full redraw of the same state gives.
@Suite("Partial redraw", .timeLimit(.minutes(5)))
@MainActor
struct PartialRedrawTests {
    let clock = ManualClock()
    let repository: InMemoryDirectory
    let model: AppModel
    let canvas = grid(120, 40)
    let controller: AppController

    init() {
        repository = InMemoryDirectory(users: (1...700).map { User.fixture(number: $0) } + mixedUsers, clock: clock)
        model = AppModel(directory: repository, clock: clock)
        controller = AppController(model: model, canvas: canvas, serverLabel: "test server")
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
        #expect(controller.movedFrameMismatches == 0, "after \(step), a moved frame differed from the frame derived in full",
                sourceLocation: sourceLocation)
    }

    func press(_ key: Key, times: Int = 1) {
        for _ in 0..<times { controller.handle([.key(key)]) }
    }

    func settle() async {
        for _ in 0..<200 { await Task.yield() }
        await model.activity.waitForLoads()
    }

    @Test func everyStepLeavesTheScreenAFullRedrawWouldDraw() async throws {
        controller.start()
        matchesAFullRedraw("the first frame, loading")
        await settle()
        matchesAFullRedraw("the first page")

        press(.character("j"), times: 3)
        matchesAFullRedraw("j inside the screen")
        press(.character("j"), times: 40)
        matchesAFullRedraw("j past the bottom (the list moves half a screen)")
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()
        matchesAFullRedraw("the detail pane following the selection")
        press(.character("k"), times: 5)
        matchesAFullRedraw("k")

        press(.pageDown, times: 12)
        matchesAFullRedraw("PageDown to pages not loaded yet (placeholders)")
        await settle()
        matchesAFullRedraw("those pages arrived")
        press(.character("G"))
        await settle()
        matchesAFullRedraw("G")
        press(.home)
        await settle()
        matchesAFullRedraw("Home")

        press(.character("s"))
        await settle()
        matchesAFullRedraw("another sort")
        press(.character("/"))
        matchesAFullRedraw("the search line open")
        for character in "Ana" { press(.character(character)) }
        matchesAFullRedraw("typing a search")
        await clock.advance(by: UserListModel.searchDebounce)
        await settle()
        matchesAFullRedraw("the search's answer (fewer rows than the screen)")
        press(.enter)
        press(.escape)
        await settle()
        matchesAFullRedraw("the search cleared")

        press(.character("?"))
        matchesAFullRedraw("help on top")
        press(.escape)
        matchesAFullRedraw("help closed")
        press(.character("n"))
        matchesAFullRedraw("the form on top")
        press(.escape)
        matchesAFullRedraw("the form closed")

        canvas.resize(columns: 80, rows: 24)
        controller.handle([.resize(canvas.size)])
        matchesAFullRedraw("a resize")
        press(.character("j"), times: 30)
        matchesAFullRedraw("j after the resize")
        canvas.resize(columns: 30, rows: 8)
        controller.handle([.resize(canvas.size)])
        matchesAFullRedraw("too small")
        canvas.resize(columns: 120, rows: 40)
        controller.handle([.resize(canvas.size)])
        matchesAFullRedraw("back to full size")
    }

    /// A move inside the screen touches the two rows whose selection changed and the position's
    /// cells in the list's top edge: nothing else is drawn, and no row is derived again.
    @Test func aMoveInsideTheScreenDrawsTwoRowsAndThePosition() async throws {
        controller.start()
        await settle()
        await clock.advance(by: UserDetailModel.settleDelay)
        await settle()
        controller.render()
        let layout = try #require(ScreenLayout(size: canvas.size))
        let firstRow = layout.list.row + 2
        let rowsMade = controller.renderer.presenter.listRows.rowsMade

        for (key, from, to) in [(Key.character("j"), 0, 1), (.character("j"), 1, 2), (.down, 2, 3), (.character("k"), 3, 2)] {
            canvas.forgetWrites()
            press(key)
            #expect(Set(canvas.writes.keys) == [layout.list.row, firstRow + from, firstRow + to], "\(key): \(canvas.writes)")
            // " 3 / 704 ": the position alone, not the edge's title and border.
            #expect((canvas.writes[layout.list.row] ?? 0) <= 12, "\(key) wrote \(canvas.writes[layout.list.row] ?? 0) cells of the top edge")
            // The marker and the name, the cells the selection styles: not the email, role, status.
            for row in [firstRow + from, firstRow + to] {
                #expect((canvas.writes[row] ?? 0) <= layout.list.width / 2, "\(key) wrote \(canvas.writes[row] ?? 0) cells of a row")
            }
            #expect(controller.renderer.presenter.listRows.rowsMade == rowsMade, "\(key) derived the rows again")
            matchesAFullRedraw("\(key) inside the screen")
        }

        // Moving the window derives the rows again and draws them all.
        press(.pageDown)
        #expect(controller.renderer.presenter.listRows.rowsMade > rowsMade)
        matchesAFullRedraw("PageDown")
        // A mark draws the marked row and the next one (Space moves down), the header's count
        // and the hints.
        canvas.forgetWrites()
        press(.character(" "))
        let selection = model.list.selection - model.list.visibleRows.lowerBound
        #expect(canvas.writes[firstRow + selection - 1] != nil && canvas.writes[firstRow + selection] != nil)
        #expect(canvas.writes.keys.filter { $0 > layout.list.row && $0 < layout.list.row + layout.list.height - 1 }.count == 2,
                "rows written: \(canvas.writes)")
        matchesAFullRedraw("a mark")
    }

    @Test func anEmptyResultAndBackRedrawsTheWholeList() async throws {
        controller.start()
        await settle()
        press(.character("/"))
        for character in "nobody-matches-this" { press(.character(character)) }
        await clock.advance(by: UserListModel.searchDebounce)
        await settle()
        matchesAFullRedraw("no match")
        press(.escape)
        await settle()
        matchesAFullRedraw("all users again")
    }
}

extension PartialRedrawTests {
    @Test func filtersTheFilterLineAndCopyLeaveTheScreenAFullRedrawWouldDraw() async throws {
        controller.start()
        await settle()
        press(.character("t"))
        await settle()
        matchesAFullRedraw("a status filter (the title names it)")
        press(.character("o"))
        await settle()
        matchesAFullRedraw("a role filter as well")
        press(.character("f"))
        matchesAFullRedraw("the filter line open on the filters in force")
        for character in " colour:red" { press(.character(character)) }
        press(.enter)
        matchesAFullRedraw("the filter line with its problem")
        press(.control("u"))
        for character in "status:invited" { press(.character(character)) }
        matchesAFullRedraw("typing over the problem")
        press(.enter)
        await settle()
        matchesAFullRedraw("the filter line applied")
        press(.character("y"))
        matchesAFullRedraw("y without a clipboard says so")
        press(.character("F"))
        await settle()
        matchesAFullRedraw("filters cleared")
        press(.character("f"))
        for character in "status:suspended role:viewer" { press(.character(character)) }
        press(.character("/"))
        press(.enter)
        await settle()
        matchesAFullRedraw("a filter nobody matches")
    }
}

extension PartialRedrawTests {
    @Test func marksTheBulkMenuARunAndItsSummaryLeaveTheScreenAFullRedrawWouldDraw() async throws {
        await repository.setTraits(DirectoryTraits(dialect: .roster, hasGroups: true))
        controller.start()
        await settle()
        for _ in 0..<10_000 where !model.traits.hasGroups { await Task.yield() }
        press(.character(" "), times: 3)
        matchesAFullRedraw("three users marked (the header counts them)")
        press(.character("*"))
        matchesAFullRedraw("all matching marked")
        press(.character("u"))
        matchesAFullRedraw("all unmarked")
        press(.character(" "), times: 2)
        press(.character("b"))
        matchesAFullRedraw("the bulk menu")
        press(.escape)
        matchesAFullRedraw("the menu closed")
        press(.character("b"))
        press(.character("g"))
        matchesAFullRedraw("the group line open")
        for character in "Nobody's group" { press(.character(character)) }
        press(.enter)
        await settle()
        matchesAFullRedraw("the group line with its problem (no such group)")
        press(.escape)
        matchesAFullRedraw("the group line closed")

        let gate = await repository.holdNext(.get)
        press(.character("S"))
        matchesAFullRedraw("the bulk question")
        press(.character("y"))
        await gate.waitForArrivals()
        await clock.advance(by: BulkRun.progressInterval)
        matchesAFullRedraw("a bulk run in progress (the progress line)")
        press(.character("j"), times: 2)
        matchesAFullRedraw("j during the run")
        press(.escape)
        matchesAFullRedraw("Esc: stopping")
        gate.open()
        await settle()
        matchesAFullRedraw("the summary of the stopped run")
        press(.escape)
        await settle()
        matchesAFullRedraw("the summary closed, the list refreshed")
    }
}
