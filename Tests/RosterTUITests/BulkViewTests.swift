import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// Marks, the progress line, the summary and the hint bar as they are drawn.
@Suite("Drawing marks and bulk runs")
@MainActor
struct BulkViewTests {
    @Test func aMarkedRowShowsAStarInTheMarkerColumnWithoutColourAndAtAnyWidth() throws {
        var content = ListContent(rows: mixedUsers.map { .user(UserRowContent($0)) }, firstIndex: 0, selectedIndex: 0, total: 6,
                                  sort: SortContent(.name))
        content.marked = [0, 2]
        for width in [40, 80] {
            let canvas = grid(width, 10)
            UserListView.draw(content, in: Rect(row: 0, column: 0, width: width, height: 10), on: canvas)
            #expect(canvas.lines[2].hasPrefix("│*" + mixedUsers[0].name.prefix(5)), "selected and marked: \(canvas.lines[2])")
            #expect(canvas.lines[3].hasPrefix("│ "), "neither marked nor selected")
            #expect(canvas.lines[4].hasPrefix("│*"), "marked: a character, not only a colour")
            #expect(canvas.style(at: Point(row: 4, column: 1)) == .marked)
            #expect(canvas.style(at: Point(row: 2, column: 1)) == .selected, "the selection still shows on a marked row")
        }
        #expect(Theme.monochrome.look(for: .marked).bold)
    }

    @Test func theHeaderSaysHowManyAreMarked() {
        var header = HeaderContent(server: "test", userCount: 100_000, connection: .connected, spinner: nil)
        header.marked = "1,000 marked"
        let canvas = grid(100, 1)
        HeaderView.draw(header, in: Rect(row: 0, column: 0, width: 100, height: 1), on: canvas)
        #expect(canvas.lines[0].contains("100,000 users  ·  1,000 marked"))
    }

    @Test func theProgressLineHasABarCountRateAndTimeLeftAndNarrowsGracefully() {
        let progress = ProgressContent(title: "Suspending", fraction: 0.412, count: "412 / 1,000", detail: "85/s · 6.9 s left", stopHint: "Esc stop")
        let wide = grid(120, 1)
        StatusLine.draw(.progress(progress), in: Rect(row: 0, column: 0, width: 120, height: 1), on: wide)
        #expect(wide.lines[0].contains("Suspending"))
        #expect(wide.lines[0].contains("████████████░░░░░░░░░░░░░░░░░░ 412 / 1,000 · 85/s · 6.9 s left"))
        #expect(wide.lines[0].hasSuffix("Esc stop"))
        let narrow = grid(40, 1)
        StatusLine.draw(.progress(progress), in: Rect(row: 0, column: 0, width: 40, height: 1), on: narrow)
        #expect(narrow.lines[0].contains("412 / 1,000"), "the count stays: \(narrow.lines[0])")
        #expect(!narrow.lines[0].contains("█"), "the bar goes first")
    }

    @Test func aNarrowHintBarKeepsHelpAndQuit() {
        let hints = [Hint("j/k", "Move"), Hint("/", "Search"), Hint("f", "Filter"), Hint("n", "New"), Hint("e", "Edit"),
                     Hint("?", "Help", keep: true), Hint("q", "Quit", keep: true), Hint("y", "Copy email")]
        let canvas = grid(40, 1)
        HintBar.draw(hints, in: Rect(row: 0, column: 0, width: 40, height: 1), on: canvas)
        #expect(canvas.lines[0].contains("?  Help"))
        #expect(canvas.lines[0].contains("q  Quit"))
        #expect(canvas.lines[0].hasPrefix(" j/k  Move"), "the first hints stay, in order: \(canvas.lines[0])")
        let wide = grid(120, 1)
        HintBar.draw(hints, in: Rect(row: 0, column: 0, width: 120, height: 1), on: wide)
        #expect(wide.lines[0].contains("y  Copy email"), "with room, every hint")
    }

    @Test func theSummaryListsEachFailureWithItsReasonAndScrolls() throws {
        let failures = (1...30).map { (who: "User \($0) <user\($0)@example.com>", reason: "The server refused: reason \($0).") }
        let content = SummaryContent(title: "Suspend users: 30 of 1,000 users failed", lines: ["970 suspended · 30 failed", "11.8 s · 85/s users"],
                                     failures: failures, actions: [Hint("r", "Retry the 30 failures"), Hint("Esc", "Close")], isError: true)
        let layout = try #require(ScreenLayout(size: Size(columns: 120, rows: 40)))
        let canvas = grid(120, 40)
        let limit = BulkSummaryView.draw(content, layout: layout, on: canvas)
        #expect(canvas.text.contains("User 1 <user1@example.com>"))
        #expect(canvas.text.contains("The server refused: reason 1."))
        #expect(canvas.text.contains("r  Retry the 30 failures"))
        #expect(limit > 0, "60 lines of failures do not fit in 40 rows")
        let scrolled = grid(120, 40)
        BulkSummaryView.draw(content, scroll: limit, layout: layout, on: scrolled)
        #expect(scrolled.text.contains("The server refused: reason 30."))
        #expect(!scrolled.text.contains("reason 1."))
    }
}
