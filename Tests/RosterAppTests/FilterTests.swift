import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Role, status and group filters: the server is asked for the filtered users, with the
/// search, and the filter stays through searches, sorts and refreshes.
@Suite("Filters", .timeLimit(.minutes(5)))
@MainActor
struct FilterTests {
    static let sales = GroupReference(id: "g-sales", name: "Sales")
    static let salesOps = GroupReference(id: "g-ops", name: "Sales Ops")
    static let users: [User] = {
        var users = (1...30).map { User.fixture(number: $0) }
        users[0].groups = [sales]
        users[1].groups = [sales, salesOps]
        users[2].groups = [salesOps]
        return users
    }()

    let clock = ManualClock()
    let repository = InMemoryDirectory(users: FilterTests.users)
    let app: AppModel

    init() {
        app = AppModel(directory: repository, clock: clock)
        app.setListViewport(height: 10)
    }

    func started(traits: DirectoryTraits = DirectoryTraits(dialect: .roster, hasGroups: true)) async {
        await repository.setTraits(traits)
        app.start()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { app.traits == traits })
    }

    func settle() async {
        await app.activity.waitForLoads()
    }

    func lastQuery() async -> UserQuery? {
        await repository.listCalls().last
    }

    @Test func tCyclesTheStatusFilterAndTheServerIsAskedForThoseUsersOnly() async {
        await started()
        app.cycleStatusFilter()
        await settle()
        #expect(app.list.filter.status == .active)
        app.cycleStatusFilter()
        await settle()
        #expect(app.list.filter == ListFilter(status: .suspended))
        #expect(await lastQuery()?.status == .suspended)
        #expect(app.list.rowCount == 10, "every third of the 30 fixtures is suspended")
        for index in 0..<app.list.visibleRows.count {
            #expect(app.list.state.value?.user(at: index)?.status == .suspended)
        }
        app.cycleStatusFilter() // invited
        app.cycleStatusFilter() // everyone
        await settle()
        #expect(app.list.filter.isEmpty)
        #expect(app.list.rowCount == 30)
    }

    @Test func filtersCombineWithTheSearchAndStayThroughSearchSortAndRefresh() async {
        await started()
        app.cycleRoleFilter() // admin
        await settle()
        app.startSearch()
        for character in "user000000" { app.editLine(.insert(String(character))) }
        app.commitLine()
        await settle()
        let searched = await lastQuery()
        #expect(searched?.role == .admin)
        #expect(searched?.search == "user000000")
        #expect(app.list.rowCount == 3, "admins among users 1–9: 2, 5, 8")

        app.cycleSort()
        await settle()
        #expect(await lastQuery()?.role == .admin)
        app.refresh()
        await settle()
        #expect(await lastQuery()?.role == .admin)
        #expect(app.list.filter.role == .admin, "kept for the session")
        app.clearSearch()
        await settle()
        #expect(await lastQuery()?.role == .admin)
        #expect(app.list.rowCount == 10)
    }

    @Test func pagesLoadedWhileScrollingCarryTheFilter() async {
        let many = (1...300).map { User.fixture(number: $0) }
        let repository = InMemoryDirectory(users: many)
        let app = AppModel(directory: repository, clock: clock, perPage: 20)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        app.cycleStatusFilter()
        app.cycleStatusFilter() // suspended: 100 users, 5 pages of 20
        await app.activity.waitForLoads()
        #expect(app.list.rowCount == 100)
        // The two filter changes' loads race to the directory: count only the scroll's.
        let before = await repository.listCalls().count
        app.moveToBottom()
        await app.activity.waitForLoads()
        #expect(app.list.selectedUser?.status == .suspended)
        let calls = await repository.listCalls().dropFirst(before)
        #expect(!calls.isEmpty, "the bottom is a page not loaded yet")
        #expect(calls.allSatisfy { $0.status == .suspended }, "\(calls)")
        #expect(app.list.cachedPageCount <= UserListModel.maximumCachedPages, "the list stays windowed")
    }

    @Test func theFilterLineReadsRoleStatusAndGroupAndLooksTheGroupUp() async {
        await started()
        app.startFilter()
        for character in "status:invited group:sales" { app.editLine(.insert(String(character))) }
        app.commitLine()
        await settle()
        #expect(app.line?.purpose != .filter)
        #expect(app.list.filter == ListFilter(status: .invited, group: Self.sales), "the exact name wins over “Sales Ops”")
        let query = await lastQuery()
        #expect(query?.group == "g-sales")
        #expect(query?.status == .invited)
        #expect(app.list.rowCount == 1, "user 1 is invited and in Sales; user 2 is suspended")

        // f opens on what is in force.
        app.startFilter()
        #expect(app.line?.text == "status:invited group:Sales")
        app.cancelLine()
        #expect(app.list.filter.group == Self.sales)
    }

    @Test func aGroupNameThatMatchesSeveralOrNoneKeepsTheLineOpenWithTheReason() async {
        await started()
        app.startFilter()
        for character in "group:ale" { app.editLine(.insert(String(character))) }
        app.commitLine()
        await settle()
        #expect(app.line?.purpose == .filter)
        #expect(app.line?.problem?.contains("2 groups match") == true)
        #expect(app.line?.text == "group:ale", "what was typed is kept")
        #expect(app.list.filter.isEmpty)

        app.editLine(.deleteToStart)
        for character in "group:nothing" { app.editLine(.insert(String(character))) }
        #expect(app.line?.problem == nil, "an edit clears the reason")
        app.commitLine()
        await settle()
        #expect(app.line?.problem == "No group is named “nothing”.")
    }

    @Test func aLineThatCannotBeReadSaysWhyAndSendsNothing() async {
        await started()
        let before = await repository.listCalls().count
        app.startFilter()
        for character in "status:gone" { app.editLine(.insert(String(character))) }
        app.commitLine()
        #expect(app.line?.purpose == .filter)
        #expect(app.line?.problem == "status must be one of active, suspended, invited.")
        #expect(await repository.listCalls().count == before)
    }

    @Test func noRolesMeansNoRoleFilterOffered() async {
        let traits = DirectoryTraits(dialect: .scim, hasRoles: false, statuses: [.active, .suspended])
        await started(traits: traits)
        app.cycleRoleFilter()
        #expect(app.list.filter.role == nil)
        #expect(app.statusMessage?.text == "This server has no roles to filter by")
        #expect(throws: FilterLineError("This server has no roles to filter by.")) {
            try FilterLine.parse("role:admin", traits: traits)
        }
        #expect(throws: FilterLineError("This server has no groups to filter by.")) {
            try FilterLine.parse("group:Sales", traits: traits)
        }
        // SCIM has no "invited": the status toggle skips it.
        app.cycleStatusFilter()
        app.cycleStatusFilter()
        #expect(app.list.filter.status == .suspended)
        app.cycleStatusFilter()
        #expect(app.list.filter.status == nil)
    }

    @Test func bareWordsAndGroupNamesWithSpaces() throws {
        let traits = DirectoryTraits(dialect: .roster, hasGroups: true)
        #expect(try FilterLine.parse("admin suspended", traits: traits) == FilterLine(role: .admin, status: .suspended))
        #expect(try FilterLine.parse("group:Sales Ops role:viewer", traits: traits)
            == FilterLine(role: .viewer, groupName: "Sales Ops"))
        #expect(try FilterLine.parse("STATUS:Invited", traits: traits) == FilterLine(status: .invited))
        #expect(try FilterLine.parse("", traits: traits) == FilterLine())
        #expect(throws: FilterLineError.self) { try FilterLine.parse("colour:red", traits: traits) }
    }

    @Test func aFailedFilterSaysWhatItWasAndRetries() async {
        await started()
        await repository.failNext(.list, with: unavailable)
        app.cycleStatusFilter()
        await settle()
        guard case .error(let dialog) = app.topScreen else {
            Issue.record("no error dialog")
            return
        }
        #expect(dialog.title == "Could not filter by status active")
        app.retry()
        await settle()
        #expect(app.list.rowCount == 10)
        #expect(await lastQuery()?.status == .active)
    }
}
