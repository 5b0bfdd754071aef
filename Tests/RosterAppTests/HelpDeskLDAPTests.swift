import RosterKit
import RosterLDAP
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The help desk's actions through the app model against OpenLDAP's slapd (SlapdServer): `P`
/// with a password typed twice, then a generated one, each checked by binding as the user; `L`
/// after failed logins.
@Suite("Help desk against slapd", .timeLimit(.minutes(2)))
@MainActor
struct HelpDeskLDAPTests {
    @Test func resetThenUnlockThenAGeneratedResetThroughTheAppModel() async throws {
        let server = try SlapdServer(people: 20)
        let app = AppModel(directory: LDAPDirectory(configuration: server.configuration()), clock: ManualClock(), perPage: 50)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { app.traits.canResetPassword && app.traits.canUnlock && !app.traits.canRequirePasswordChange })
        let user = try #require(app.list.selectedUser)

        app.startPasswordReset()
        app.editLine(.insert("Through-The-App-1"))
        app.commitLine()
        app.editLine(.insert("Through-The-App-1"))
        app.commitLine()
        app.confirm()
        await app.activity.waitForLoads()
        #expect(app.bulkRun?.progress.succeeded == 1, "\(app.bulkRun?.logLine ?? "no run")")
        #expect(server.canBind(user.id, password: "Through-The-App-1"))

        // Three failures lock the account (the seeded policy); U clears the lockout.
        for _ in 1...3 { _ = server.canBind(user.id, password: "wrong") }
        #expect(!server.canBind(user.id, password: "Through-The-App-1"))
        app.startUnlock()
        app.confirm()
        await app.activity.waitForLoads()
        #expect(app.bulkRun?.progress.succeeded == 1, "\(app.bulkRun?.logLine ?? "no run")")
        #expect(server.canBind(user.id, password: "Through-The-App-1"))

        // Ctrl-G: a generated password, shown once, is the one slapd now takes (one server for
        // both: each start is a slapadd and a few processes).
        app.startPasswordReset()
        app.generatePassword()
        app.confirm() // slapd has no next-logon question: straight to the confirmation
        await app.activity.waitForLoads()
        #expect(app.bulkRun?.progress.succeeded == 1, "\(app.bulkRun?.logLine ?? "no run")")
        guard case .choice(let dialog) = app.topScreen else { Issue.record("no password dialog: \(app.topScreen)"); return }
        let password = String(dialog.message.dropFirst("New password: ".count))
        #expect(password.count == GeneratedPassword.length)
        #expect(server.canBind(user.id, password: password))
        #expect(!server.canBind(user.id, password: "Through-The-App-1"))
        app.close()
        guard case .list = app.topScreen else { Issue.record("the dialog stays"); return }
        #expect(app.statusMessage?.text.contains(password) == false)
    }
}
