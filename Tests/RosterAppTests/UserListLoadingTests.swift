import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("UserListModel: first load and retry", .timeLimit(.minutes(5)))
@MainActor
struct UserListLoadingTests {
    @Test func theFirstLoadAsksForTheFirstPageAndShowsIt() async throws {
        let h = ListHarness(count: 120)
        #expect(h.list.state == .idle)
        #expect(h.list.rowCount == 0)
        h.list.load()
        #expect(h.list.state == .loading(previous: nil))
        #expect(h.activity.isBusy)
        await h.activity.waitForLoads()

        #expect(await h.repository.listCalls() == [UserQuery(page: 1, perPage: 50, sort: .name)])
        let listing = try #require(h.list.state.value)
        #expect(h.list.state == .loaded(listing))
        #expect(h.list.rowCount == 120)
        #expect(h.list.row(at: 0) == .user(.fixture(number: 1)))
        #expect(h.list.row(at: 49) == .user(.fixture(number: 50)))
        #expect(h.list.selectedUser == .fixture(number: 1))
        #expect(h.list.positionLabel == "1 / 120")
        #expect(!h.activity.isBusy)
    }

    @Test func rowsOfAPageNotYetLoadedArePlaceholders() async {
        let h = await ListHarness(count: 120).loaded()
        #expect(h.list.row(at: 50) == .loading)
        #expect(h.list.row(at: 119) == .loading)
        #expect(h.list.row(at: 120) == nil)
        #expect(h.list.row(at: -1) == nil)
    }

    @Test func loadingTwiceAsksOnce() async {
        let h = ListHarness(count: 10)
        h.list.load()
        h.list.load()
        await h.activity.waitForLoads()
        h.list.load()
        await h.activity.waitForLoads()
        #expect(await h.repository.callCount(.list) == 1)
    }

    @Test func aFailedFirstLoadShowsNothingAndSaysWhy() async {
        let h = ListHarness(count: 10)
        var failures: [ListFailure] = []
        h.list.onReloadFailure = { failures.append($0) }
        await h.repository.failNext(.list, with: unavailable)
        h.list.load()
        await h.activity.waitForLoads()

        #expect(h.list.state == .failed(unavailable, previous: nil))
        #expect(h.list.rowCount == 0)
        #expect(failures == [ListFailure(action: .load, error: unavailable)])
        #expect(failures.first?.title == "Could not load the users")
    }

    @Test func failureThenRetryLoads() async {
        let h = ListHarness(count: 10)
        await h.repository.failNext(.list, with: .timedOut)
        h.list.load()
        await h.activity.waitForLoads()
        #expect(h.list.state.error == .timedOut)

        #expect(h.list.retry())
        #expect(h.list.state == .loading(previous: nil))
        await h.activity.waitForLoads()
        #expect(h.list.state.error == nil)
        #expect(h.list.rowCount == 10)
        #expect(h.list.selectedUser == .fixture(number: 1))
        #expect(await h.repository.listCalls() == [UserQuery(page: 1, perPage: 50), UserQuery(page: 1, perPage: 50)])
    }

    @Test func retryWithNothingFailedDoesNothing() async {
        let h = await ListHarness(count: 10).loaded()
        #expect(!h.list.retry())
        #expect(await h.repository.callCount(.list) == 1)
    }

    @Test func anEmptyDirectoryHasNoRowsAndNothingToMove() async {
        let h = await ListHarness(users: []).loaded()
        #expect(h.list.state.value?.total == 0)
        #expect(h.list.rowCount == 0)
        #expect(h.list.selectedUser == nil)
        #expect(h.list.row(at: 0) == nil)
        #expect(h.list.positionLabel == "0 / 0")
        h.list.moveDown()
        h.list.moveToBottom()
        #expect(h.list.selection == 0)
        #expect(await h.repository.callCount(.list) == 1)
    }

    @Test func theSelectedUserIsReportedWhenItsPageArrives() async {
        let h = ListHarness(count: 120)
        var reported: [User?] = []
        h.list.onSelectedUserChange = { reported.append($0) }
        h.list.load()
        await h.activity.waitForLoads()
        #expect(reported == [.fixture(number: 1)])
        h.list.moveDown()
        #expect(reported == [.fixture(number: 1), .fixture(number: 2)])
        h.list.moveUp()
        h.list.moveUp() // already at the top: nothing new to report
        #expect(reported == [.fixture(number: 1), .fixture(number: 2), .fixture(number: 1)])
    }

    @Test func aTallerScreenAsksForEveryPageItShows() async {
        let h = ListHarness(count: 500, perPage: 20, height: 50)
        h.list.load()
        await h.activity.waitForLoads()
        // The first load fills the screen (pages 1-3); then one screen ahead (pages 3-5).
        #expect(await h.requestedPages().sorted() == [1, 2, 3, 4, 5])
        #expect(h.list.row(at: 49) == .user(.fixture(number: 50)))
    }

    @Test func positionIsGroupedByThousands() async {
        let h = await ListHarness(count: 1_234, perPage: 200).loaded()
        h.list.moveToBottom()
        await h.activity.waitForLoads()
        #expect(h.list.positionLabel == "1,234 / 1,234")
    }
}
