import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// A user with a given name, and an email derived from it.
func person(_ number: Int, _ name: String) -> User {
    let local = name.lowercased().split(separator: " ").joined(separator: ".")
    return User.fixture(id: "p-\(number)", name: name, email: "\(local)@example.org")
}

/// Names for search tests: "a" matches all, "an" four, "ana" three.
let searchDirectory: [User] = [
    person(1, "Ana Silva"), person(2, "Anabel Ruiz"), person(3, "Juliana Costa"),
    person(4, "Daniel Kim"), person(5, "Carla Diaz"), person(6, "Bob Stone"),
]

/// A list model over an in-memory directory, with separate manual clocks for the app's
/// timers and the repository's delays so each can be driven on its own.
@MainActor
struct ListHarness {
    let appClock = ManualClock()
    let repositoryClock = ManualClock()
    let repository: InMemoryDirectory
    let activity: Activity
    let list: UserListModel

    init(users: [User], perPage: Int = 50, height: Int = 10) {
        repository = InMemoryDirectory(users: users, clock: repositoryClock)
        activity = Activity(clock: appClock)
        list = UserListModel(directory: repository, activity: activity, perPage: perPage)
        list.setViewportHeight(height)
    }

    init(count: Int, perPage: Int = 50, height: Int = 10) {
        self.init(users: (1...max(1, count)).prefix(count).map { User.fixture(number: $0) }, perPage: perPage, height: height)
    }

    /// Loads the first page and waits for it.
    func loaded() async -> ListHarness {
        list.load()
        await activity.waitForLoads()
        return self
    }

    /// The page numbers of every list call so far.
    func requestedPages() async -> [Int] {
        await repository.listCalls().map(\.page)
    }

    /// Moves time past the search debounce and waits for the search it starts.
    func passDebounce() async {
        await appClock.advance(by: UserListModel.searchDebounce)
        await activity.waitForIdle()
    }

    func names() -> [String] {
        (0..<list.rowCount).compactMap { list.row(at: $0) }.compactMap { row in
            if case .user(let user) = row { user.name } else { nil }
        }
    }
}
