import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// The bulk keys through the main loop, at the narrowest size the app draws.
@Suite("Bulk keys", .timeLimit(.minutes(5)))
@MainActor
struct BulkKeysTests {
    let clock = ManualClock()
    let repository = InMemoryDirectory(users: (1...120).map { User.fixture(number: $0) })
    let canvas = grid(60, 24)


    @Test func spaceMarksTheHintsSayWhatMarksDoAndHelpAndQuitStayAtSixtyColumns() async throws {
        let model = AppModel(directory: repository, clock: clock)
        let controller = AppController(model: model, canvas: canvas, serverLabel: "test")
        controller.start()
        #expect(await canvas.eventuallyShows("1 / 120"))
        let hints = canvas.lines[23]
        #expect(hints.contains("?  Help") && hints.contains("q  Quit"), "\(hints)")

        controller.handle([.key(.character(" ")), .key(.character(" "))])
        #expect(await canvas.eventuallyShows("3 / 120"))
        #expect(canvas.text.contains("2 marked"))
        let marked = canvas.lines.filter { $0.hasPrefix("│*") }
        #expect(marked.count == 2, "\(canvas.text)")
        let markedHints = canvas.lines[23]
        #expect(markedHints.contains("b  Bulk: 2"), "\(markedHints)")
        #expect(markedHints.contains("?  Help") && markedHints.contains("q  Quit"), "\(markedHints)")

        controller.handle([.key(.character("b"))])
        #expect(await canvas.eventuallyShows("Bulk actions"))
        #expect(canvas.text.contains("2 marked users"))
        controller.handle([.key(.character("a"))])
        #expect(await canvas.eventuallyShows("Reactivate 2 users?"))
        controller.handle([.key(.escape)])
        controller.handle([.key(.character("u"))])
        #expect(await canvas.eventuallyShows("Unmarked 2"))
        #expect(!canvas.text.contains("marked ·"))
    }
}
