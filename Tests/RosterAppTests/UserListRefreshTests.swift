import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("UserListModel: refresh", .timeLimit(.minutes(5)))
@MainActor
struct UserListRefreshTests {
    @Test func refreshReloadsTheRowsOnScreen() async {
        let h = await ListHarness(count: 300, height: 10).loaded()
        h.list.select(row: 145) // screen 136..<146: pages 3
        await h.activity.waitForLoads()
        let before = await h.repository.callCount(.list)
        h.list.refresh()
        await h.activity.waitForLoads()
        let calls = await h.repository.listCalls().dropFirst(before)
        #expect(calls.map(\.page).first == 3)
        #expect(h.list.selectedUser == .fixture(number: 146))
    }

    @Test func refreshShowsChangesAndKeepsTheSelectedUserWhenRowsMove() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        h.list.select(row: 4)
        #expect(h.list.selectedUser?.name == "Daniel Kim")
        await h.repository.insert(person(7, "Aaron Abel"))
        await h.repository.insert(person(8, "Bea Bell"))
        h.list.refresh()
        await h.activity.waitForLoads()
        #expect(h.list.rowCount == 8)
        #expect(h.list.selection == 6)
        #expect(h.list.selectedUser?.name == "Daniel Kim")
    }

    @Test func whenTheSelectedUserIsGoneTheSelectionStaysOnTheSameRow() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        h.list.select(row: 4)
        #expect(h.list.selectedUser?.name == "Daniel Kim")
        await h.repository.remove(id: "p-4")
        h.list.refresh()
        await h.activity.waitForLoads()
        #expect(h.list.rowCount == 5)
        #expect(h.list.selection == 4)
        #expect(h.list.selectedUser?.name == "Juliana Costa")
    }

    @Test func refreshCanSelectAUserJustSaved() async {
        let h = await ListHarness(users: searchDirectory).loaded()
        await h.repository.insert(person(9, "Cid Moura"))
        h.list.refresh(selecting: "p-9")
        await h.activity.waitForLoads()
        #expect(h.list.selectedUser?.name == "Cid Moura")
    }

    @Test func theLastGoodListStaysDuringAndAfterAFailedRefresh() async throws {
        let h = await ListHarness(count: 30, height: 10).loaded()
        h.list.moveDown(by: 4)
        let listing = try #require(h.list.state.value)
        var failures: [ListFailure] = []
        h.list.onReloadFailure = { failures.append($0) }

        let gate = await h.repository.holdNext(.list)
        await h.repository.failNext(.list, with: unavailable)
        h.list.refresh()
        await gate.waitForArrivals()
        #expect(h.list.state == .loading(previous: listing))
        #expect(h.list.row(at: 0) == .user(.fixture(number: 1)))
        #expect(h.list.selectedUser == .fixture(number: 5))

        gate.open()
        await h.activity.waitForLoads()
        #expect(h.list.state == .failed(unavailable, previous: listing))
        #expect(h.list.rowCount == 30)
        #expect(h.list.row(at: 0) == .user(.fixture(number: 1)))
        #expect(h.list.selectedUser == .fixture(number: 5))
        #expect(failures == [ListFailure(action: .refresh, error: unavailable)])
        #expect(failures.first?.title == "Could not refresh the list")

        // Still usable, and retry repeats the refresh.
        h.list.moveDown()
        #expect(h.list.selectedUser == .fixture(number: 6))
        #expect(h.list.retry())
        await h.activity.waitForLoads()
        #expect(h.list.state.error == nil)
        #expect(h.list.selectedUser == .fixture(number: 6))
    }

    @Test func aRefreshBeforeAnythingLoadedIsAFirstLoad() async {
        let h = ListHarness(count: 10)
        await h.repository.failNext(.list, with: .offline)
        h.list.load()
        await h.activity.waitForLoads()
        h.list.refresh()
        await h.activity.waitForLoads()
        #expect(h.list.rowCount == 10)
    }

    @Test func aRefreshOverAScreenSpanningTwoPagesFetchesBoth() async {
        let h = await ListHarness(count: 300, height: 10).loaded()
        h.list.select(row: 54) // screen 45..<55: pages 1 and 2
        await h.activity.waitForLoads()
        let before = await h.repository.callCount(.list)
        await h.repository.insert(.fixture(number: 0)) // sorts first: every row shifts by one
        h.list.refresh()
        await h.activity.waitForLoads()
        let pages = await h.repository.listCalls().dropFirst(before).map(\.page)
        #expect(pages.sorted() == [1, 2])
        #expect(h.list.selectedUser == .fixture(number: 55))
        #expect(h.list.selection == 55)
    }
}
