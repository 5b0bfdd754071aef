import Foundation
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The order a list opens in (the `sort` setting; an LDAP directory's own order unless it says
/// otherwise, docs/ldap.md) and the sort key's cycle through the sorted orders back to it.
@Suite("AppModel: the directory's own order", .timeLimit(.minutes(5)))
@MainActor
struct DirectoryOrderTests {
    static let ldap = DirectoryTraits(dialect: .ldap, canSort: true, hasRoles: false, statuses: [.active, .suspended], hasGroups: true)
    let repository = InMemoryDirectory(users: searchDirectory)

    func started(_ traits: DirectoryTraits, sort: UserSort) async -> AppModel {
        await repository.setTraits(traits)
        let app = AppModel(directory: repository, clock: ManualClock(), sort: sort)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { app.traits == traits })
        return app
    }

    @Test func anLDAPListOpensInTheDirectorysOrderAskingNoSort() async {
        let app = await started(Self.ldap, sort: .directory)
        #expect(app.list.sort == .directory)
        #expect(app.list.state.value?.sort == .directory)
        #expect(await repository.listCalls().map(\.sort) == [.directory])
        #expect(UserQuery(sort: app.list.sort).parameters.allSatisfy { $0.name != "sort" })
    }

    @Test func theSortKeyCyclesThroughTheSortedOrdersAndBackToTheDirectorysOrder() async {
        let app = await started(Self.ldap, sort: .directory)
        var seen: [UserSort] = []
        for _ in UserSort.allCases {
            app.cycleSort()
            await app.activity.waitForLoads()
            seen.append(app.list.sort)
        }
        #expect(seen == [.name, .nameDescending, .email, .emailDescending, .createdAt, .createdAtDescending, .directory])
        #expect(await repository.listCalls().map(\.sort) == [.directory] + seen)
    }

    @Test func anLDAPListOpenedSortedStillCyclesBackToTheDirectorysOrder() async {
        let app = await started(Self.ldap, sort: .createdAtDescending)
        app.cycleSort()
        await app.activity.waitForLoads()
        #expect(app.list.sort == .directory)
    }

    @Test func rosterServersCycleHasNoDirectoryOrder() async {
        let app = await started(.rosterAPI, sort: .default)
        var seen: [UserSort] = []
        for _ in UserSort.sorted {
            app.cycleSort()
            await app.activity.waitForLoads()
            seen.append(app.list.sort)
        }
        #expect(seen == [.nameDescending, .email, .emailDescending, .createdAt, .createdAtDescending, .name])
    }

    @Test func anLDAPServerThatCannotSortStaysInItsOwnOrderAndSaysSo() async {
        var traits = Self.ldap
        traits.canSort = false
        let app = await started(traits, sort: .directory)
        app.cycleSort()
        #expect(app.statusMessage?.text == "This server cannot sort: the list is in its own order")
        #expect(app.list.sort == .directory)
        #expect(await repository.listCalls().count == 1)
    }

    @Test func aSearchKeepsTheDirectorysOrder() async {
        let app = await started(Self.ldap, sort: .directory)
        app.startSearch()
        app.editLine(.insert("an"))
        app.commitLine()
        await app.activity.waitForLoads()
        let last = await repository.listCalls().last
        #expect(last?.search == "an" && last?.sort == .directory)
        #expect(app.list.state.value?.sort == .directory)
    }

    @Test func anExportFollowsTheListsOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = await started(Self.ldap, sort: .directory)
        let before = await repository.listCalls().count
        app.startExport()
        app.editLine(.deleteToStart)
        app.editLine(.insert(folder.appendingPathComponent("people.csv").path))
        app.commitLine()
        await app.activity.waitForLoads()
        let calls = await repository.listCalls().dropFirst(before)
        #expect(!calls.isEmpty && calls.allSatisfy { $0.sort == .directory }, "\(calls.map(\.sort))")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("people.csv").path))
    }
}
