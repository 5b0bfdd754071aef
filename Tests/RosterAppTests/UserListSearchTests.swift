import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("UserListModel: search and sort", .timeLimit(.minutes(5)))
@MainActor
struct UserListSearchTests {
    @Test func typingQuicklySendsOneRequestForTheLastQuery() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        h.list.setSearch("a")
        await h.appClock.advance(by: .milliseconds(100))
        h.list.setSearch("an")
        await h.appClock.advance(by: .milliseconds(100))
        h.list.setSearch("ana")
        #expect(h.list.searchText == "ana")
        await h.appClock.advance(by: .milliseconds(199))
        #expect(await h.repository.callCount(.list) == 1) // only the first load so far
        await h.passDebounce()

        let calls = await h.repository.listCalls()
        #expect(calls.count == 2)
        #expect(calls.last?.search == "ana")
        #expect(h.names() == ["Ana Silva", "Anabel Ruiz", "Juliana Costa"])
        #expect(h.list.state.value?.search == "ana")
    }

    @Test func anEarlierAnswerArrivingLastIsNeverShown() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        let slow = await h.repository.holdNext(.list)
        h.list.setSearch("a")
        await h.appClock.advance(by: UserListModel.searchDebounce)
        await slow.waitForArrivals() // "a" is on the wire
        h.list.setSearch("an")
        h.list.setSearch("ana")
        #expect(!h.activity.isBusy) // the superseded search no longer spins
        await h.appClock.advance(by: UserListModel.searchDebounce)
        #expect(await eventuallyAfterYields { h.list.state.value?.search == "ana" && !h.list.isLoading })
        #expect(h.names() == ["Ana Silva", "Anabel Ruiz", "Juliana Costa"])

        slow.open() // "a" answers last
        await h.activity.waitForIdle()
        #expect(h.names() == ["Ana Silva", "Anabel Ruiz", "Juliana Costa"])
        #expect(h.list.state.value?.search == "ana")
        #expect(await h.repository.listCalls().map(\.search) == [nil, "a", "ana"])
    }

    @Test func aSupersededSearchRequestIsCancelled() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        await h.repository.setDelay(.seconds(1), for: .list)
        h.list.setSearch("a")
        await h.appClock.advance(by: UserListModel.searchDebounce)
        await h.repositoryClock.waitForSleepers(1) // "a" waits for its answer
        h.list.setSearch("ana")
        // The request for "a" is cancelled at once, not left to finish.
        #expect(await eventuallyAfterYields { h.repositoryClock.sleeperCount == 0 })
        await h.appClock.advance(by: UserListModel.searchDebounce)
        await h.repositoryClock.waitForSleepers(1)
        await h.repositoryClock.advance(by: .seconds(1))
        await h.activity.waitForIdle()
        #expect(h.names() == ["Ana Silva", "Anabel Ruiz", "Juliana Costa"])
    }

    @Test func theLastGoodListStaysWhileASearchRuns() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        h.list.setSearch("ana")
        #expect(h.list.state.isLoading)
        #expect(h.names().count == 6)
        let gate = await h.repository.holdNext(.list)
        await h.appClock.advance(by: UserListModel.searchDebounce)
        await gate.waitForArrivals()
        #expect(h.names().count == 6)
        #expect(h.activity.isBusy)
        gate.open()
        await h.activity.waitForIdle()
        #expect(h.names().count == 3)
    }

    @Test func aFailedSearchKeepsTheListAndRetryRepeatsIt() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        var failures: [ListFailure] = []
        h.list.onReloadFailure = { failures.append($0) }
        await h.repository.failNext(.list, with: .offline)
        h.list.setSearch("ana")
        await h.passDebounce()

        #expect(h.list.state.error == .offline)
        #expect(h.names().count == 6)
        #expect(failures.map(\.title) == ["Could not search for “ana”"])

        #expect(h.list.retry())
        await h.activity.waitForLoads()
        #expect(h.names() == ["Ana Silva", "Anabel Ruiz", "Juliana Costa"])
        #expect(await h.repository.listCalls().map(\.search) == [nil, "ana", "ana"])
    }

    @Test func goingBackToTheShownQueryAsksNothing() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        h.list.setSearch("x")
        #expect(h.list.state.isLoading)
        h.list.setSearch("")
        #expect(!h.list.state.isLoading)
        await h.appClock.advance(by: .seconds(1))
        await h.activity.waitForIdle()
        #expect(await h.repository.callCount(.list) == 1)
        #expect(h.names().count == 6)
    }

    @Test func enterSearchesWithoutWaiting() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        h.list.setSearch("bob")
        h.list.applySearchNow()
        await h.activity.waitForIdle()
        #expect(h.names() == ["Bob Stone"])
        h.list.applySearchNow() // nothing pending
        await h.activity.waitForIdle()
        #expect(await h.repository.callCount(.list) == 2)
    }

    @Test func newResultsStartAtTheTop() async {
        let h = await ListHarness(count: 100, height: 10).loaded()
        h.list.moveDown(by: 30)
        h.list.setSearch("User 00000")
        await h.passDebounce()
        #expect(h.list.selection == 0)
        #expect(h.list.scrollOffset == 0)
        #expect(h.list.rowCount == 99)
        #expect(h.list.selectedUser == .fixture(number: 1))
    }

    @Test func noMatchesIsAnEmptyList() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        h.list.setSearch("zzz")
        await h.passDebounce()
        #expect(h.list.state.value?.total == 0)
        #expect(h.list.selectedUser == nil)
        #expect(h.list.positionLabel == "0 / 0")
    }

    @Test func sortCyclesThroughEveryOrderOfTheContract() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        var seen: [UserSort] = []
        for _ in UserSort.sorted {
            h.list.cycleSort()
            seen.append(h.list.sort)
            await h.activity.waitForLoads()
        }
        #expect(seen == [.nameDescending, .email, .emailDescending, .createdAt, .createdAtDescending, .name])
        #expect(await h.repository.listCalls().map(\.sort) == [.name] + seen)
    }

    @Test func sortShowsTheNewOrder() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        #expect(h.names().first == "Ana Silva")
        h.list.cycleSort()
        await h.activity.waitForLoads()
        #expect(h.list.state.value?.sort == .nameDescending)
        #expect(h.names() == ["Juliana Costa", "Daniel Kim", "Carla Diaz", "Bob Stone", "Anabel Ruiz", "Ana Silva"])
    }

    @Test func aFailedSortKeepsTheOldOrderAndRetryRepeatsIt() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        var failures: [ListFailure] = []
        h.list.onReloadFailure = { failures.append($0) }
        await h.repository.failNext(.list, with: .timedOut)
        h.list.cycleSort()
        await h.activity.waitForLoads()
        #expect(failures.map(\.title) == ["Could not sort by name ↓"])
        #expect(h.names().first == "Ana Silva")
        h.list.retry()
        await h.activity.waitForLoads()
        #expect(h.names().first == "Juliana Costa")
    }

    @Test func sortingKeepsTheSearch() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        h.list.setSearch("ana")
        await h.passDebounce()
        h.list.cycleSort()
        await h.activity.waitForLoads()
        #expect(h.names() == ["Juliana Costa", "Anabel Ruiz", "Ana Silva"])
    }
}
