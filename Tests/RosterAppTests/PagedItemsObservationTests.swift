import Observation
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// PagedItems is observable by hand (its key paths made once, not at every access): each
/// property still tells the front end's observation when it changes, and only then.
@Suite("PagedItems observation")
@MainActor
struct PagedItemsObservationTests {
    @Test func aMoveChangesTheSelectionAndTheWindowButNotTheItems() async {
        let harness = await GroupsHarness(groupNames: (1...30).map { "Group \(1000 + $0)" })
        await harness.started()
        await harness.openGroups()
        let groups = harness.view.groups
        let selection = observedChange(of: { _ = groups.selection }) { groups.moveDown() }
        #expect(selection)
        let rest = observedChange(of: { _ = (groups.items, groups.state, groups.top) }) { groups.moveDown() }
        #expect(!rest, "a move inside the window changes only the selection")
        let top = observedChange(of: { _ = groups.top }) { groups.moveToBottom() }
        #expect(top)
        let window = observedChange(of: { _ = groups.visibleRows }) { groups.moveToTop() }
        #expect(window)
    }

    @Test func loadingChangesTheStateTheItemsAndTheLoadingFlag() async throws {
        let harness = await GroupsHarness(groupNames: (1...150).map { "Group \(1000 + $0)" })
        await harness.started()
        await harness.openGroups()
        let groups = harness.view.groups
        let loadingMore = observedChange(of: { _ = groups.isLoadingMore }) { groups.moveToBottom() }
        #expect(loadingMore, "the next page")
        await harness.settle()
        #expect(groups.items.count == 150)

        var renamed = try #require(groups.items.last)
        renamed.name = "Renamed"
        let replaced = observedChange(of: { _ = groups.items }) { groups.replace(renamed) }
        #expect(replaced, "an item replaced in place")
        #expect(groups.items.last?.name == "Renamed")
        let reloading = observedChange(of: { _ = groups.state }) { groups.reload() }
        #expect(reloading)
        await harness.settle()
        let cleared = observedChange(of: { _ = groups.items }) { groups.clear() }
        #expect(cleared)
        #expect(groups.items.isEmpty && groups.state == .idle)
    }

    @Test func aFailedPageChangesTheFailure() async {
        let harness = await GroupsHarness(groupNames: (1...150).map { "Group \(1000 + $0)" })
        await harness.started()
        await harness.openGroups()
        let groups = harness.view.groups
        await harness.groups.failNext(.listGroups, with: unavailable)
        let failed = Flag()
        withObservationTracking { _ = groups.moreFailure } onChange: { failed.set() }
        groups.moveToBottom()
        await harness.settle()
        #expect(failed.isSet && groups.moreFailure != nil)
        let retried = observedChange(of: { _ = groups.moreFailure }) { groups.retry() }
        #expect(retried)
    }
}
