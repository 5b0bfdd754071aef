import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The groups view: Tab, the groups and their members, and the errors of reading them.
@Suite("Groups view", .timeLimit(.minutes(5)))
@MainActor
struct GroupsViewTests {
    @Test func tabShowsTheGroupsWithTheFirstGroupsMembersAndReadsThemOnce() async {
        let harness = await GroupsHarness()
        await harness.started()
        #expect(await harness.groups.callCount(.listGroups) == 0, "nothing is read before the view opens")
        await harness.openGroups()
        #expect(harness.app.mainView == .groups)
        #expect(harness.view.groups.items.map(\.name) == ["Finance", "Ops", "Sales"])
        #expect(harness.view.groups.total == 3)
        #expect(harness.view.shownGroup?.name == "Finance", "the first group's members show at once")
        #expect(harness.view.members.items.isEmpty)
        #expect(harness.view.members.total == 0)

        harness.app.toggleMainView()
        #expect(harness.app.mainView == .users)
        harness.app.toggleMainView()
        await harness.settle()
        #expect(await harness.groups.callCount(.listGroups) == 1, "opening the view again shows what was read")
    }

    @Test func slashSearchesTheGroupsByNameAndEscGoesBackToEveryGroup() async {
        let harness = await GroupsHarness(groupNames: ["Sales", "Ops", "Finance", "Sales EMEA"])
        await harness.started()
        await harness.openGroups()
        harness.app.startSearch()
        #expect(harness.app.line?.purpose == .search)
        for character in "SAL" { harness.app.editLine(.insert(String(character))) }
        await harness.settle()
        #expect(harness.view.search == "SAL")
        #expect(harness.view.groups.items.map(\.name) == ["Sales", "Sales EMEA"], "any case, on the server's side")
        #expect(harness.app.list.searchText.isEmpty, "the users' search is left alone")
        harness.app.commitLine()
        #expect(harness.app.line?.purpose != .search)

        // `/` again, typed over, Esc: back to the search from before.
        harness.app.startSearch()
        harness.app.editLine(.deleteToStart)
        harness.app.editLine(.insert("emea"))
        await harness.settle()
        #expect(harness.view.groups.items.map(\.name) == ["Sales EMEA"])
        harness.app.cancelLine()
        await harness.settle()
        #expect(harness.view.search == "SAL")
        #expect(harness.view.groups.items.count == 2)

        harness.app.clearSearch() // Esc in the view
        await harness.settle()
        #expect(harness.view.search.isEmpty)
        #expect(harness.view.groups.items.count == 4)
    }

    @Test func membersFollowTheSelectionOnceItRests() async {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        let before = await harness.groups.callCount(.members)
        harness.app.moveInGroups(.down)
        harness.app.moveInGroups(.down)
        await harness.settle()
        #expect(await harness.groups.callCount(.members) == before, "no member list while the selection moves")
        #expect(harness.view.shownGroup?.name == "Finance")
        await harness.settle(advancing: UserDetailModel.settleDelay)
        #expect(await harness.groups.callCount(.members) == before + 1)
        #expect(harness.view.shownGroup?.name == "Sales")
        #expect(harness.view.members.items.map(\.name) == ["Anabel Ruiz", "Juliana Costa"])

        harness.app.moveInGroups(.members)
        #expect(harness.view.focus == .members)
        harness.app.moveInGroups(.down)
        #expect(harness.view.selectedMember?.name == "Juliana Costa")
        #expect(harness.view.groups.selected?.name == "Sales", "keys move in the members now")
        harness.app.moveInGroups(.groups)
        #expect(harness.view.focus == .groups)
        #expect(harness.view.selectedMember == nil)
    }

    @Test func aDirectoryWithoutGroupsSaysSoAndReadsNothing() async {
        let harness = await GroupsHarness(traits: .rosterAPI)
        harness.app.start()
        await harness.settle()
        await harness.openGroups()
        for _ in 0..<100 { await Task.yield() }
        #expect(harness.app.mainView == .groups)
        #expect(!harness.app.hasGroups)
        #expect(await harness.groups.callCount(.listGroups) == 0)
        harness.app.newGroup()
        #expect(harness.app.screens == [.list], "no group can be made where there are none")
    }

    @Test func groupsArePagedAsTheSelectionNearsTheEnd() async {
        let harness = await GroupsHarness(groupNames: (1...250).map { "Group \(1000 + $0)" })
        await harness.started()
        await harness.openGroups()
        #expect(harness.view.groups.items.count == GroupsViewModel.groupsPerPage)
        #expect(harness.view.groups.total == 250)
        harness.app.moveInGroups(.bottom)
        await harness.settle()
        #expect(harness.view.groups.items.count == 200, "the next page, once the selection is near the end")
        harness.app.moveInGroups(.bottom)
        await harness.settle()
        #expect(harness.view.groups.items.count == 250)
        #expect(Set(harness.view.groups.items.map(\.id)).count == 250)
        #expect(await harness.groups.callCount(.listGroups) == 3)
    }

    @Test(arguments: [(ScrollStyle.line, 1..<11, 9..<19), (.halfScreen, 5..<15, 5..<15)])
    func thePanesScrollAsTheListDoes(style: ScrollStyle, afterTenDown: Range<Int>, afterElevenUp: Range<Int>) async {
        let harness = await GroupsHarness(groupNames: (1...30).map { "Group \(1000 + $0)" }, scrollStyle: style)
        await harness.started()
        await harness.openGroups()
        for _ in 1...10 { harness.app.moveInGroups(.down) }
        #expect(harness.view.groups.selection == 10)
        #expect(harness.view.groups.visibleRows == afterTenDown, "one row, or half a screen further")
        for _ in 1...10 { harness.app.moveInGroups(.down) }
        for _ in 1...11 { harness.app.moveInGroups(.up) }
        #expect(harness.view.groups.selection == 9)
        #expect(harness.view.groups.visibleRows == afterElevenUp)
    }

    @Test func aFailedLoadShowsTheErrorDialogAndRRetriesIt() async {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.groups.failNext(.listGroups, with: unavailable)
        await harness.openGroups()
        #expect(harness.topError?.title == "Could not load the groups")
        #expect(harness.app.canRetry)
        harness.app.retry()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        #expect(harness.view.groups.items.count == 3)
        #expect(!harness.app.canRetry)
    }

    @Test func aFailedMemberListIsRetriedByR() async {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.groups.failNext(.members, with: unavailable)
        await harness.openGroups()
        #expect(harness.topError?.title == "Could not load the members of Finance")
        harness.app.close()
        #expect(harness.app.canRetry, "the failure stays retryable on the view")
        harness.app.retry()
        await harness.settle()
        #expect(harness.view.members.state == .loaded(0))
        #expect(!harness.app.canRetry)
    }
}
