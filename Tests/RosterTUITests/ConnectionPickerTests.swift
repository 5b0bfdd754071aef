import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// The `C` picker over two in-memory directories: statuses probed in the background, Enter
/// opens and switches, each connection keeps its own search and selection, the header names
/// the connection on screen and takes its colour, and writes go only to the one on screen.
@Suite("Connection picker", .timeLimit(.minutes(2)))
@MainActor
struct ConnectionPickerTests {
    let clock = ManualClock()
    let first: InMemoryDirectory
    let second: InMemoryDirectory
    let canvas = grid(120, 40)
    let controller: AppController
    let opens = OpenCount()

    init() {
        first = InMemoryDirectory(users: (1...30).map { User.fixture(number: $0) } + mixedUsers, clock: clock)
        second = InMemoryDirectory(users: (100...104).map { User.fixture(number: $0) }, clock: clock)
        let model = AppModel(directory: first, clock: clock)
        controller = AppController(model: model, canvas: canvas, serverLabel: "alpha · first")
        let second = second, opens = opens, first = first
        let catalog = ConnectionCatalog(
            profiles: [
                .init(name: "alpha", summary: "first server", color: .blue),
                .init(name: "beta", summary: "second server", color: .red),
                .init(name: "gamma", summary: "nowhere", color: nil),
            ],
            open: { name in
                await opens.add()
                guard name == "beta" else { throw ProbeFailure(text: "cannot reach \(name)") }
                return .init(directory: second, label: "beta · second", bulkConcurrency: 2)
            },
            probe: { name in
                switch name {
                case "alpha": await ConnectionCatalog.status(of: first)
                case "beta": await ConnectionCatalog.status(of: second)
                default: "✗ unreachable"
                }
            })
        let clock = clock
        controller.enableConnections(catalog, current: "alpha", label: "alpha · first") { opened in
            AppModel(directory: opened.directory, clock: clock)
        }
    }

    func press(_ keys: Key...) { controller.handle(keys.map(TerminalEvent.key)) }
    func type(_ text: String) { controller.handle(text.map { .key(.character($0)) }) }


    @Test func switchesAndComesBackToTheSameSearchAndSelection() async throws {
        controller.start()
        #expect(await canvas.eventuallyShows("1 / 36"))
        #expect(canvas.headerColor == .blue)
        #expect(canvas.lines[0].contains("alpha · first"))
        press(.character("/"))
        type("ana")
        await clock.advance(by: UserListModel.searchDebounce)
        press(.enter)
        #expect(await canvas.eventuallyShows("“ana”"))
        let firstModel = controller.model
        let selected = firstModel.list.selectedUser?.id

        press(.character("C"))
        #expect(await canvas.eventuallyShows("Connections"))
        // Each row's status arrives from its probe, without a key.
        #expect(await canvas.eventuallyShows("Roster API · 36 users"))
        #expect(await canvas.eventuallyShows("Roster API · 5 users"))
        #expect(await canvas.eventuallyShows("✗ unreachable"))
        press(.down, .enter)
        #expect(await canvas.eventuallyShows("beta · second"))
        #expect(controller.currentConnection == "beta")
        #expect(canvas.headerColor == .red)
        #expect(await canvas.eventuallyShows("1 / 5"))
        #expect(controller.model !== firstModel)
        #expect(!canvas.text.contains("“ana”"))

        press(.character("C"))
        #expect(await canvas.eventuallyShows("Connections"))
        press(.up, .enter)
        #expect(await canvas.eventuallyShows("alpha · first"))
        #expect(controller.model === firstModel)
        #expect(canvas.text.contains("“ana”"))
        #expect(controller.model.list.selectedUser?.id == selected)
        #expect(canvas.headerColor == .blue)

        // Back to beta again: kept, not opened a second time.
        press(.character("C"), .down, .enter)
        #expect(await canvas.eventuallyShows("beta · second"))
        #expect(await opens.count == 1)
    }

    @Test func aConnectionThatCannotOpenSaysWhyAndStays() async throws {
        controller.start()
        #expect(await canvas.eventuallyShows("1 / 36"))
        press(.character("C"))
        type("gam")
        press(.enter)
        #expect(await canvas.eventuallyShows("gamma: "))
        #expect(controller.currentConnection == "alpha")
        press(.escape)
        #expect(controller.connectionPicker == nil)
        // Keys go to the list again.
        press(.character("j"))
        #expect(await canvas.eventuallyShows("2 / 36"))
    }
}

actor OpenCount {
    var count = 0
    func add() { count += 1 }
}

struct ProbeFailure: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}
