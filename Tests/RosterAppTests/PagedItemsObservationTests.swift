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
        var moves = 0
        groups.onMove = { moves += 1 }
        // The selection and the window are not observed (a key draws its own frame): a move
        // is told to onMove, and changes nothing Observation watches.
        let observed = observedChange(of: { _ = (groups.items, groups.state, groups.selection, groups.top) }) {
            groups.moveDown()
        }
        #expect(!observed, "a move changes only the selection")
        #expect(moves == 1 && groups.selection == 1)
        groups.moveToTop()
        groups.moveUp()
        #expect(moves == 2, "a key that moves nothing tells nothing")
        groups.moveToBottom()
        #expect(moves == 4, "the selection and the window")
        #expect(groups.visibleRows.upperBound == groups.items.count)
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
