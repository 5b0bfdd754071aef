import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

/// A million users, never held: the list keeps a bounded window of pages wherever it goes.
@Suite("UserListModel: a directory of a million", .timeLimit(.minutes(5)))
@MainActor
struct UserListScaleTests {
    static let million = 1_000_000

    @Test func scrollingTopToBottomKeepsTheCacheBoundedAndFetchesEachPageOnce() async {
        let repository = GeneratedDirectory(count: Self.million)
        let activity = Activity(clock: ManualClock())
        let list = UserListModel(directory: repository, activity: activity)
        list.setViewportHeight(40)
        list.load()
        await activity.waitForLoads()
        #expect(list.rowCount == Self.million)

        var largestCache = 0
        var steps = 0
        while list.selection < list.rowCount - 1 {
            list.pageDown()
            await activity.waitForLoads()
            largestCache = max(largestCache, list.cachedPageCount)
            steps += 1
        }
        #expect(steps == Self.million / 40)
        #expect(largestCache <= UserListModel.maximumCachedPages)
        #expect(list.selectedUser == .fixture(number: Self.million))
        let pages = await repository.listCalls.map(\.page)
        #expect(pages.count == Self.million / 50) // every page once: no thrashing, no repeats
        #expect(Set(pages).count == pages.count)
    }

    @Test func endFetchesOnlyTheLastPage() async {
        let repository = GeneratedDirectory(count: Self.million)
        let activity = Activity(clock: ManualClock())
        let list = UserListModel(directory: repository, activity: activity)
        list.setViewportHeight(20)
        list.load()
        await activity.waitForLoads()
        list.moveToBottom()
        await activity.waitForLoads()
        #expect(await repository.listCalls.map(\.page) == [1, 20_000])
        #expect(list.selectedUser == .fixture(number: Self.million))
        #expect(list.positionLabel == "1,000,000 / 1,000,000")
        #expect(list.cachedPageCount == 2)

        // And back: page 1 is still held, so Home costs no request.
        list.moveToTop()
        await activity.waitForLoads()
        #expect(await repository.listCalls.count == 2)
        #expect(list.selectedUser == .fixture(number: 1))
    }

    @Test func jumpingAroundKeepsTheCacheBounded() async {
        let repository = GeneratedDirectory(count: Self.million)
        let activity = Activity(clock: ManualClock())
        let list = UserListModel(directory: repository, activity: activity)
        list.setViewportHeight(30)
        list.load()
        await activity.waitForLoads()
        for step in 1...200 {
            list.select(row: (step * 7_919) % Self.million)
            await activity.waitForLoads()
            #expect(list.cachedPageCount <= UserListModel.maximumCachedPages)
        }
        #expect(list.selectedRow != .loading)
    }
}
