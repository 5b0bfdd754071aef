import Foundation
import RosterApp
import RosterJournal
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// `U` through the real controller and views: S journals a change, U lists it with its
/// state and what changed, `u` and `y` undo it, and the screen fits the narrowest terminal
/// Roster runs in; `?` lists the keys.
@Suite("Recent changes screen", .timeLimit(.minutes(2)))
@MainActor
struct RecentChangesScreenTests {
    let scratch = TemporaryFolder("recent-changes")
    var folder: String { scratch.path }

    func screen(columns: Int, rows: Int) async throws -> (AppModel, GridCanvas, AppController, InMemoryDirectory) {
        let directory = InMemoryDirectory(users: (1...5).map { number in
            var user = User.fixture(number: number)
            user.status = .active
            return user
        })
        let model = AppModel(directory: directory, clock: ManualClock())
        model.recorder = ChangeRecorder(journal: try ChangeJournal(path: folder + "/journal.sqlite"), connection: "test")
        let canvas = grid(columns, rows)
        let controller = AppController(model: model, canvas: canvas, serverLabel: "test server")
        controller.start()
        await model.activity.waitForLoads()
        return (model, canvas, controller, directory)
    }

    @Test func sThenUListsTheChangeAndUUndoesIt() async throws {
        let (model, canvas, controller, directory) = try await screen(columns: 120, rows: 30)
        _ = controller.handle([.key(.character("S"))])
        await model.activity.waitForLoads()
        #expect(await directory.storedUser(id: User.fixture(number: 1).id)?.status == .suspended)
        _ = controller.handle([.key(.character("U"))])
        await model.activity.waitForLoads()
        controller.render()
        #expect(canvas.text.contains("Recent changes"))
        #expect(canvas.text.contains("done    User 0000001 <user0000001@example.com>: status active → suspended"))
        _ = controller.handle([.key(.character("u"))])
        controller.render()
        #expect(canvas.text.contains("Set back 1 change?"))
        _ = controller.handle([.key(.character("y"))])
        await model.activity.waitForLoads()
        controller.render()
        #expect(canvas.text.contains("undone  User 0000001 <user0000001@example.com>: set back"))
        #expect(await directory.storedUser(id: User.fixture(number: 1).id)?.status == .active)
        _ = controller.handle([.key(.escape)])
        await model.activity.waitForLoads()
        controller.render()
        #expect(canvas.text.contains("done    Undo: User 0000001"), "the undo is listed, newest first")
    }

    /// At Roster's smallest terminal (60×15), a row keeps its time, state and the start of
    /// what changed; the rest is cut, never wrapped over the next row.
    @Test func theScreenFitsTheSmallestTerminal() async throws {
        let (model, canvas, controller, _) = try await screen(columns: ScreenLayout.minimumSize.columns, rows: ScreenLayout.minimumSize.rows)
        _ = controller.handle([.key(.character("S"))])
        await model.activity.waitForLoads()
        _ = controller.handle([.key(.character("U"))])
        await model.activity.waitForLoads()
        controller.render()
        let row = try #require(canvas.find("done"))
        let line = canvas.line(row.row)
        #expect(line.contains(" done    User 0000001"), "\(line)")
        #expect(line.count <= ScreenLayout.minimumSize.columns)
        #expect(canvas.text.contains("Undo"))
    }

    /// The screen pages by its height, which it learns before a frame is derived; deriving a
    /// frame (twice a frame, once under Observation) writes nothing to a model.
    @Test func theScreenLearnsItsHeightBeforeAFrameNotWhileOneIsDerived() async throws {
        let (model, _, controller, _) = try await screen(columns: 120, rows: 30)
        _ = controller.handle([.key(.character("S"))])
        await model.activity.waitForLoads()
        _ = controller.handle([.key(.character("U"))])
        await model.activity.waitForLoads()
        controller.render()
        guard case .recentChanges(let changes)? = model.screens.last else {
            Issue.record("U opens recent changes: \(model.screens)")
            return
        }
        let rows = RecentChangesView.visibleRows(in: try #require(ScreenLayout(size: Size(columns: 120, rows: 30))))
        #expect(changes.visibleRowCount == rows)
        _ = controller.renderer.content(size: Size(columns: 80, rows: 24))
        #expect(changes.visibleRowCount == rows, "a frame derived for another size wrote its height")
    }

    @Test func helpListsTheKeys() async throws {
        let (_, canvas, controller, _) = try await screen(columns: 160, rows: 60)
        _ = controller.handle([.key(.character("?"))])
        controller.render()
        #expect(canvas.text.contains("Recent changes and runs"))
        #expect(canvas.text.contains("Kept without the password: no undo"))
    }
}
