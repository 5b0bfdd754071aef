import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("UserListModel: pages in the background", .timeLimit(.minutes(5)))
@MainActor
struct UserListPagingTests {
    @Test func theNextPageIsAskedForBeforeTheSelectionReachesTheEdge() async {
        let h = await ListHarness(count: 200, height: 10).loaded()
        // Screen 21..<31, one screen ahead 31..<41: still page 1.
        h.list.moveDown(by: 30)
        #expect(await h.requestedPages() == [1])
        // Screen 31..<41, ahead 41..<51 reaches page 2 while the selection is at row 40.
        h.list.moveDown(by: 10)
        #expect(h.list.selection == 40)
        await h.activity.waitForLoads()
        #expect(await h.requestedPages() == [1, 2])
        // By the time the selection crosses into page 2, its rows are there.
        h.list.moveDown(by: 10)
        #expect(h.list.selectedRow == .user(.fixture(number: 51)))
    }

    @Test func aPageFetchedAheadTurnsTheSpinnerOnlyWhenSlow() async {
        let h = await ListHarness(count: 200, height: 10).loaded()
        await h.repository.setDelay(.seconds(1), for: .list)
        h.list.moveDown(by: 40) // screen 31..<41 is cached; page 2 is fetched ahead
        #expect(h.list.selectedRow == .user(.fixture(number: 41)))
        await h.repositoryClock.waitForSleepers(1)
        #expect(!h.activity.isBusy, "nobody waits for a page ahead of the screen")
        await h.appClock.advance(by: Activity.backgroundGrace)
        #expect(await eventuallyAfterYields { h.activity.isBusy }, "a slow one turns the spinner")
        await h.repositoryClock.advance(by: .seconds(1))
        await h.activity.waitForLoads()
        #expect(!h.activity.isBusy)
        #expect(await h.requestedPages() == [1, 2])
    }

    @Test func aPageArrivingReplacesItsPlaceholders() async {
        let h = await ListHarness(count: 200, height: 10).loaded()
        await h.repository.setDelay(.seconds(1), for: .list)
        h.list.moveToBottom()
        #expect(h.list.selectedRow == .loading)
        #expect(h.list.isLoading)
        #expect(h.activity.isBusy)
        await h.repositoryClock.waitForSleepers(1)
        await h.repositoryClock.advance(by: .seconds(1))
        await h.activity.waitForLoads()
        #expect(h.list.selectedRow == .user(.fixture(number: 200)))
        #expect(!h.list.isLoading)
    }

    @Test func aFailedPageIsAnErrorRowAndTheRestStaysUsable() async {
        let h = await ListHarness(count: 200, height: 10).loaded()
        await h.repository.failNext(.list, with: unavailable)
        h.list.moveDown(by: 45) // asks for page 2, which fails
        await h.activity.waitForLoads()

        #expect(h.list.row(at: 50) == .failed(unavailable))
        #expect(h.list.row(at: 99) == .failed(unavailable))
        #expect(h.list.hasFailedPages)
        #expect(h.list.state.error == nil) // the list as a whole is fine
        #expect(h.list.row(at: 49) == .user(.fixture(number: 50)))
        h.list.moveUp(by: 5)
        #expect(h.list.selectedUser == .fixture(number: 41))
        // Moving into the failed rows shows them as such; it does not ask again by itself.
        h.list.moveDown(by: 15)
        #expect(h.list.selectedRow == .failed(unavailable))
        await h.activity.waitForLoads()
        #expect(await h.requestedPages() == [1, 2])
    }

    @Test func anErrorRowHasItsOwnRetry() async {
        let h = await ListHarness(count: 200, height: 10).loaded()
        await h.repository.failNext(.list, with: .connectionLost)
        h.list.moveDown(by: 55)
        await h.activity.waitForLoads()
        #expect(h.list.selectedRow == .failed(.connectionLost))

        #expect(!h.list.retryRow(at: 10)) // a loaded row has nothing to retry
        #expect(h.list.retryRow(at: 55))
        #expect(h.list.selectedRow == .loading)
        await h.activity.waitForLoads()
        #expect(h.list.selectedRow == .user(.fixture(number: 56)))
        #expect(!h.list.hasFailedPages)
    }

    @Test func retryAsksAgainForEveryFailedPage() async {
        let h = await ListHarness(count: 500, height: 10).loaded()
        await h.repository.failNext(.list, with: .timedOut, times: 3)
        h.list.moveToBottom()          // page 10 fails
        await h.activity.waitForLoads()
        h.list.select(row: 250)       // pages 6 (on screen) and 5 (ahead, going up) fail
        await h.activity.waitForLoads()
        #expect(h.list.row(at: 499) == .failed(.timedOut))
        #expect(h.list.row(at: 250) == .failed(.timedOut))
        #expect(h.list.row(at: 249) == .failed(.timedOut))

        #expect(h.list.retry())
        await h.activity.waitForLoads()
        #expect(h.list.row(at: 499) == .user(.fixture(number: 500)))
        #expect(h.list.row(at: 250) == .user(.fixture(number: 251)))
        #expect(h.list.row(at: 249) == .user(.fixture(number: 250)))
        #expect(!h.list.retry())
    }

    @Test func farPagesAreForgottenAndAskedForAgainWhenNeeded() async {
        let h = await ListHarness(count: 1_500, perPage: 10, height: 10).loaded()
        for _ in 0..<100 {
            h.list.pageDown()
            await h.activity.waitForLoads()
            #expect(h.list.cachedPageCount <= UserListModel.maximumCachedPages)
        }
        #expect(h.list.row(at: 0) == .loading) // page 1 was dropped
        h.list.moveToTop()
        await h.activity.waitForLoads()
        #expect(h.list.selectedUser == .fixture(number: 1))
        #expect(await h.requestedPages().filter { $0 == 1 }.count == 2)
    }

    @Test func pagesScrolledPastBeforeTheyArriveAreNoLongerAskedFor() async {
        let h = await ListHarness(count: 3_000, height: 10).loaded()
        await h.repository.setDelay(.seconds(1), for: .list)
        for _ in 0..<200 { h.list.pageDown() } // far faster than the server answers
        // Page 1 and the page where the selection stopped; the ones in between were dropped.
        #expect(h.list.cachedPageCount == 2)
        #expect(h.list.isLoading)
        await h.repositoryClock.waitForSleepers(1)
        await h.repositoryClock.advance(by: .seconds(1))
        await h.activity.waitForLoads()
        let screen = h.list.visibleRows
        #expect(screen.allSatisfy { h.list.row(at: $0) != .loading })
        #expect(h.list.selectedUser == .fixture(number: 2_001))
    }

    @Test func aPageReportingANewTotalResizesTheList() async {
        let h = await ListHarness(count: 120, height: 10).loaded()
        for number in 121...130 { await h.repository.insert(.fixture(number: number)) }
        h.list.moveToBottom() // the last page as known: 3
        await h.activity.waitForLoads()
        #expect(h.list.rowCount == 130)
        #expect(h.list.positionLabel == "120 / 130")
        h.list.moveToBottom()
        await h.activity.waitForLoads()
        #expect(h.list.selectedUser == .fixture(number: 130))
    }

    @Test func aPageAnswerForResultsNoLongerShownIsDropped() async {
        let h = await ListHarness(count: 200, height: 10).loaded()
        let gate = await h.repository.holdNext(.list)
        h.list.moveToBottom() // page 4, held
        await gate.waitForArrivals()
        h.list.moveToTop()    // page 4 no longer wanted
        gate.open()
        await h.activity.waitForLoads()
        #expect(h.list.row(at: 199) == .loading)
        #expect(h.list.cachedPageCount == 1)
    }
}

@Suite("UserListModel: a server that does not say how many")
@MainActor
struct UserListUnknownTotalTests {
    @Test func thePositionSaysWhatIsKnownUntilTheEndIsSeen() async {
        let h = ListHarness(count: 120, height: 10)
        await h.repository.hideTotals()
        _ = await h.loaded()
        #expect(h.list.positionLabel == "1 / 51+")
        // Walking down asks for the next pages; each raises what is known.
        for _ in 0..<6 {
            h.list.moveToBottom()
            await h.activity.waitForLoads()
        }
        #expect(h.list.positionLabel == "120 / 120", "a short page showed the end")
        #expect(h.list.selectedRow == .user(.fixture(number: 120)))
    }
}
