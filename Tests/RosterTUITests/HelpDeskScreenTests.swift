import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// `P` and `L` through the real controller and views: a password typed on the line is never
/// drawn, and the `?` help lists the keys only where the directory's traits allow them.
@Suite("Help desk screen", .timeLimit(.minutes(2)))
@MainActor
struct HelpDeskScreenTests {
    func screen(_ traits: DirectoryTraits) async -> (AppModel, GridCanvas, AppController) {
        let directory = InMemoryDirectory(users: (1...5).map { User.fixture(number: $0) })
        await directory.setTraits(traits)
        let model = AppModel(directory: directory, clock: ManualClock())
        let canvas = grid(160, 60)
        let controller = AppController(model: model, canvas: canvas, serverLabel: "test server")
        controller.start()
        await model.activity.waitForLoads()
        for _ in 0..<1000 where model.traits != traits { await Task.yield() }
        return (model, canvas, controller)
    }

    @Test func aTypedPasswordIsNeverDrawnAndHelpListsTheKeys() async throws {
        let traits = DirectoryTraits(dialect: .ldap, hasRoles: false, hasGroups: true, canResetPassword: true, canUnlock: true)
        let (model, canvas, controller) = await screen(traits)
        #expect(model.traits == traits)
        _ = controller.handle([.key(.character("P"))] + "Hidden-Pass-9".map { .key(.character($0)) })
        controller.render()
        #expect(canvas.text.contains("New password for"))
        #expect(!canvas.text.contains("Hidden-Pass-9") && !canvas.text.contains("Hidden"))
        _ = controller.handle([.key(.escape), .key(.character("?"))])
        controller.render()
        #expect(canvas.text.contains("Reset the password"))
        #expect(canvas.text.contains("Unlock after failed logins"))
    }

    @Test func ctrlGOffersAndShowsAGeneratedPasswordOnceThenNoMore() async throws {
        let traits = DirectoryTraits(dialect: .ldap, hasRoles: false, hasGroups: true, canResetPassword: true, canUnlock: true)
        let (model, canvas, controller) = await screen(traits)
        _ = controller.handle([.key(.character("P"))])
        controller.render()
        #expect(canvas.text.contains("Ctrl-G") && canvas.text.contains("Generate one"))
        _ = controller.handle([.key(.control("g"))])
        controller.render()
        #expect(canvas.text.contains("Reset passwords"), "the confirmation")
        _ = controller.handle([.key(.character("y"))])
        await model.activity.waitForLoads()
        controller.render()
        guard case .choice(let dialog) = model.topScreen else { Issue.record("no password dialog: \(model.topScreen)"); return }
        let password = String(dialog.message.dropFirst("New password: ".count))
        #expect(password.count == 16)
        #expect(canvas.text.contains(password), "shown once")
        #expect(canvas.text.contains("Esc  Close"))
        _ = controller.handle([.key(.escape)])
        controller.render()
        #expect(!canvas.text.contains(password), "and gone once closed")
    }

    @Test func helpLeavesOutWhatTheDirectoryCannotDo() async throws {
        let (_, canvas, controller) = await screen(.rosterAPI)
        _ = controller.handle([.key(.character("?"))])
        controller.render()
        #expect(canvas.text.contains("User list"))
        #expect(!canvas.text.contains("Reset the password"))
        #expect(!canvas.text.contains("Unlock after failed logins"))
    }
}
