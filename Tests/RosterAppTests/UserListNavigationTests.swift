import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("UserListModel: selection and scrolling", .timeLimit(.minutes(5)))
@MainActor
struct UserListNavigationTests {
    @Test func movingDownScrollsOnlyWhenTheSelectionLeavesTheScreen() async {
        let h = await ListHarness(count: 100, height: 10).loaded()
        for _ in 0..<9 { h.list.moveDown() }
        #expect(h.list.selection == 9)
        #expect(h.list.scrollOffset == 0)
        h.list.moveDown()
        #expect(h.list.selection == 10)
        #expect(h.list.scrollOffset == 1)
        #expect(h.list.visibleRows == 1..<11)
        #expect(h.list.selectedUser == .fixture(number: 11))
    }

    @Test func halfScreenScrollingPutsTheSelectionMidScreenAndStopsAtTheEnds() async {
        let h = await ListHarness(count: 100, height: 10).loaded()
        h.list.scrollStyle = .halfScreen
        for _ in 0..<9 { h.list.moveDown() }
        #expect(h.list.scrollOffset == 0)
        h.list.moveDown()
        #expect(h.list.selection == 10)
        #expect(h.list.scrollOffset == 5, "half a screen, the selection mid-screen")
        for _ in 0..<4 { h.list.moveDown() }
        #expect(h.list.scrollOffset == 5, "no scrolling until it leaves the screen again")
        h.list.moveUp(by: 10)
        #expect(h.list.selection == 4)
        #expect(h.list.scrollOffset == 0)
        h.list.moveDown(by: 95)
        #expect(h.list.selection == 99)
        #expect(h.list.scrollOffset == 90, "never past the last screen")
        h.list.pageUp()
        #expect(h.list.scrollOffset == 80, "a page is still a page")
    }

    @Test func movingUpScrollsBackWhenTheSelectionLeavesTheTop() async {
        let h = await ListHarness(count: 100, height: 10).loaded()
        h.list.moveDown(by: 15)
        #expect(h.list.scrollOffset == 6)
        h.list.moveUp(by: 9)
        #expect(h.list.selection == 6)
        #expect(h.list.scrollOffset == 6)
        h.list.moveUp()
        #expect(h.list.selection == 5)
        #expect(h.list.scrollOffset == 5)
    }

    @Test func movesStopAtBothEnds() async {
        let h = await ListHarness(count: 30, height: 10).loaded()
        h.list.moveUp()
        #expect(h.list.selection == 0)
        h.list.moveDown(by: 100)
        #expect(h.list.selection == 29)
        #expect(h.list.scrollOffset == 20)
        h.list.moveDown()
        #expect(h.list.selection == 29)
    }

    @Test func pageDownAndUpMoveByAScreen() async {
        let h = await ListHarness(count: 100, height: 10).loaded()
        h.list.moveDown(by: 3)
        h.list.pageDown()
        #expect(h.list.selection == 13)
        #expect(h.list.scrollOffset == 10)
        h.list.pageDown()
        #expect(h.list.selection == 23)
        #expect(h.list.scrollOffset == 20)
        h.list.pageUp()
        #expect(h.list.selection == 13)
        #expect(h.list.scrollOffset == 10)
        h.list.pageUp()
        h.list.pageUp()
        #expect(h.list.selection == 0)
        #expect(h.list.scrollOffset == 0)
    }

    @Test func pageDownStopsAtTheLastScreen() async {
        let h = await ListHarness(count: 25, height: 10).loaded()
        h.list.pageDown()
        h.list.pageDown()
        h.list.pageDown()
        #expect(h.list.selection == 24)
        #expect(h.list.scrollOffset == 15)
    }

    @Test func homeAndEndJumpToTheEnds() async {
        let h = await ListHarness(count: 40, height: 10).loaded()
        h.list.moveToBottom()
        #expect(h.list.selection == 39)
        #expect(h.list.scrollOffset == 30)
        #expect(h.list.selectedUser == .fixture(number: 40))
        h.list.moveToTop()
        #expect(h.list.selection == 0)
        #expect(h.list.scrollOffset == 0)
    }

    @Test func endAsksForTheLastPageOnly() async {
        let h = await ListHarness(count: 1_000, height: 10).loaded()
        h.list.moveToBottom()
        #expect(h.list.selectedRow == .loading)
        await h.activity.waitForLoads()
        #expect(await h.requestedPages() == [1, 20])
        #expect(h.list.selectedUser == .fixture(number: 1_000))
        #expect(h.list.positionLabel == "1,000 / 1,000")
    }

    @Test func aClickSelectsTheRow() async {
        let h = await ListHarness(count: 100, height: 10).loaded()
        h.list.select(row: 7)
        #expect(h.list.selection == 7)
        #expect(h.list.scrollOffset == 0)
        h.list.select(row: 500)
        #expect(h.list.selection == 99)
    }

    @Test func theWheelScrollsAndTheSelectionStaysOnScreen() async {
        let h = await ListHarness(count: 100, height: 10).loaded()
        h.list.moveDown(by: 2)
        h.list.scroll(by: 5)
        #expect(h.list.scrollOffset == 5)
        #expect(h.list.selection == 5)
        h.list.scroll(by: -3)
        #expect(h.list.scrollOffset == 2)
        #expect(h.list.selection == 5)
        h.list.scroll(by: 1_000)
        #expect(h.list.scrollOffset == 90)
        #expect(h.list.selection == 90)
        h.list.scroll(by: -1_000)
        #expect(h.list.scrollOffset == 0)
        #expect(h.list.selection == 9)
    }

    @Test func aSmallerScreenKeepsTheSelectionVisible() async {
        let h = await ListHarness(count: 100, height: 20).loaded()
        h.list.moveDown(by: 15)
        h.list.setViewportHeight(5)
        #expect(h.list.selection == 15)
        #expect(h.list.scrollOffset == 11)
        #expect(h.list.visibleRows == 11..<16)
    }

    @Test func aKeyThatMovesNothingDoesNotWakeTheView() async {
        let h = await ListHarness(count: 30, height: 10).loaded()
        var moves = 0
        h.list.onMove = { moves += 1 }
        let atTop = observedChange(of: { _ = (h.list.selection, h.list.scrollOffset, h.list.state) }) {
            h.list.moveUp()
            h.list.pageUp()
            h.list.moveToTop()
            h.list.setViewportHeight(10)
        }
        #expect(!atTop)
        #expect(moves == 0)
        h.list.moveDown()
        #expect(moves == 1)
        h.list.pageDown()
        #expect(moves == 2)
    }

    /// The selection is not observed (a key draws its own frame; Observation's cancelling
    /// would cost the key before its bytes): a move is told to `onMove` instead.
    @Test func aMoveIsToldToOnMoveNotToObservation() async {
        let h = await ListHarness(count: 30, height: 10).loaded()
        var moves = 0
        h.list.onMove = { moves += 1 }
        let observed = observedChange(of: { _ = (h.list.selection, h.list.scrollOffset) }) {
            h.list.moveDown(by: 15)
        }
        #expect(!observed)
        #expect(moves == 1)
        #expect(h.list.selection == 15)
    }
}
