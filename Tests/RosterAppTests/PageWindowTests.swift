import Testing
@testable import RosterApp

@Suite("PageWindow")
struct PageWindowTests {
    let window = PageWindow(perPage: 50)

    @Test func rowsMapToOneBasedPages() {
        #expect(window.page(ofRow: 0) == 1)
        #expect(window.page(ofRow: 49) == 1)
        #expect(window.page(ofRow: 50) == 2)
        #expect(window.rows(ofPage: 2) == 50..<100)
        #expect(window.pages(covering: 40..<60) == 1...2)
        #expect(window.pages(covering: 10..<10) == nil)
    }

    @Test func wantsTheVisiblePagesFirstThenOneScreenAhead() {
        // Rows 35..<45 on screen, 45..<55 ahead going down.
        #expect(window.wantedPages(offset: 35, height: 10, total: 1_000, direction: .down) == [1, 2])
        // Going up from the same place, nothing above page 1.
        #expect(window.wantedPages(offset: 35, height: 10, total: 1_000, direction: .up) == [1])
        // Rows 50..<60 visible (page 2), 40..<50 ahead going up (page 1).
        #expect(window.wantedPages(offset: 50, height: 10, total: 1_000, direction: .up) == [2, 1])
    }

    @Test func wantsNothingPastTheEnd() {
        #expect(window.wantedPages(offset: 990, height: 10, total: 1_000, direction: .down) == [20])
        #expect(window.wantedPages(offset: 0, height: 10, total: 0, direction: .down) == [])
    }

    @Test func aTallScreenWantsEveryPageItShows() {
        #expect(window.wantedPages(offset: 0, height: 120, total: 1_000, direction: .down) == [1, 2, 3, 4, 5])
    }

    @Test func evictsTheFarthestPagesFirstAndNeverAWantedOne() {
        let evicted = PageWindow.evictions(cached: [1, 2, 3, 10, 11, 30], wanted: [10, 11], center: 10, limit: 4)
        #expect(evicted == [30, 1])
        #expect(PageWindow.evictions(cached: [1, 2, 3], wanted: [2], center: 2, limit: 4) == [])
        // Wanted pages are kept even over the limit.
        #expect(PageWindow.evictions(cached: [1, 2, 3], wanted: [1, 2, 3], center: 2, limit: 1) == [])
    }
}
