import PropertyBased
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The list's paging window under any sequence of moves, resizes, searches and failures: the
/// selection stays on screen and in the list, the cache stays bounded, and once the loads
/// settle every row on screen is the user the directory has there, or its page's error.
@Suite("PageWindow properties: any sequence of moves, resizes, searches and failures", .timeLimit(.minutes(5)))
@MainActor
struct PageWindowPropertyTests {
    /// One thing a person (or the network) does to the list.
    enum Action: Sendable, CustomStringConvertible {
        case down(Int), up(Int), pageDown, pageUp, top, bottom, select(Int), scroll(Int)
        case resize(Int), search(String), failNextList, retry, refresh

        var description: String {
            switch self {
            case .down(let n): "down(\(n))"
            case .up(let n): "up(\(n))"
            case .pageDown: "pageDown"
            case .pageUp: "pageUp"
            case .top: "top"
            case .bottom: "bottom"
            case .select(let row): "select(\(row))"
            case .scroll(let n): "scroll(\(n))"
            case .resize(let height): "resize(\(height))"
            case .search(let text): "search(\(text.debugDescription))"
            case .failNextList: "failNextList"
            case .retry: "retry"
            case .refresh: "refresh"
            }
        }
    }

    /// Searches that match all, some, one and none of the users below.
    nonisolated static let searches = ["", "User", "00001", "000015", "0002", "nobody", "user 0000"]

    nonisolated static let action = Generator<Action, Shrink.None<Action>> { random in
        switch Int.random(in: 0..<20, using: &random) {
        case 0...3: .down(Int.random(in: 1...60, using: &random))
        case 4...5: .up(Int.random(in: 1...60, using: &random))
        case 6: .pageDown
        case 7: .pageUp
        case 8: .top
        case 9: .bottom
        case 10: .select(Int.random(in: -5...320, using: &random))
        case 11...12: .scroll(Int.random(in: -80...80, using: &random))
        case 13: .resize(Int.random(in: 0...70, using: &random))
        case 14...15: .search(searches.randomElement(using: &random)!)
        case 16: .failNextList
        case 17: .retry
        case 18: .refresh
        default: .down(1)
        }
    }

    nonisolated static let users = (1...300).map { User.fixture(number: $0) }

    @Test("after every step: selection visible and in range, cache bounded; settled rows are the directory's")
    func invariants() async {
        await propertyCheck(count: 40, input: Self.action.array(of: 1...30), Gen.int(in: 1...3).map { [7, 25, 50][$0 - 1] }) { actions, perPage in
            let h = await ListHarness(users: Self.users, perPage: perPage, height: 10).loaded()
            let reference = InMemoryDirectory(users: Self.users)
            var search = ""
            for action in actions {
                switch action {
                case .down(let n): h.list.moveDown(by: n)
                case .up(let n): h.list.moveUp(by: n)
                case .pageDown: h.list.pageDown()
                case .pageUp: h.list.pageUp()
                case .top: h.list.moveToTop()
                case .bottom: h.list.moveToBottom()
                case .select(let row): h.list.select(row: row)
                case .scroll(let n): h.list.scroll(by: n)
                case .resize(let height): h.list.setViewportHeight(height)
                case .search(let text):
                    h.list.setSearch(text)
                    search = text
                case .failNextList: await h.repository.failNext(.list, with: unavailable)
                case .retry: if !h.list.retry() { _ = h.list.retryRow(at: h.list.selection) }
                case .refresh: h.list.refresh()
                }
                checkBounds(h.list, after: action)
                await h.passDebounce()
                await h.activity.waitForLoads()
                checkBounds(h.list, after: action)
                await checkRows(h.list, search: search, reference: reference, after: action)
            }
        }
    }

    private func checkBounds(_ list: UserListModel, after action: Action) {
        let height = max(1, list.viewportHeight)
        if list.rowCount == 0 {
            #expect(list.selection == 0, "after \(action): no rows, selection \(list.selection)")
        } else {
            #expect((0..<list.rowCount).contains(list.selection), "after \(action): selection \(list.selection) of \(list.rowCount)")
            #expect(list.scrollOffset >= 0 && list.scrollOffset <= max(0, list.rowCount - 1), "after \(action): offset \(list.scrollOffset)")
            #expect((list.scrollOffset..<list.scrollOffset + height).contains(list.selection),
                    "after \(action): selection \(list.selection) off the screen at \(list.scrollOffset)+\(height)")
        }
        let screenPages = (height * 2) / list.perPage + 3
        #expect(list.cachedPageCount <= max(UserListModel.maximumCachedPages, screenPages),
                "after \(action): \(list.cachedPageCount) pages cached")
    }

    /// Settled: every row on screen is the reference directory's user at that place for the
    /// search shown, or the error of a page that failed; never a placeholder.
    private func checkRows(_ list: UserListModel, search: String, reference: InMemoryDirectory, after action: Action) async {
        guard let listing = list.state.value, listing.answers(search: search, sort: list.sort, filter: list.filter),
              list.rowCount > 0 else { return }
        var expected: [User] = []
        for page in 1...2 {
            let query = UserQuery(page: page, perPage: 200, search: search.isEmpty ? nil : search, sort: list.sort)
            expected += (try? await reference.listUsers(query))?.items ?? []
        }
        #expect(list.rowCount == expected.count, "after \(action): \(list.rowCount) rows, the directory has \(expected.count)")
        for index in list.visibleRows where index < list.rowCount {
            switch list.row(at: index) {
            case .user(let user):
                #expect(index < expected.count && user == expected[index], "after \(action): row \(index) is \(user.name)")
            case .failed: break
            case .loading, nil:
                Issue.record("after \(action): row \(index) still loading once every load settled")
            }
        }
    }
}
