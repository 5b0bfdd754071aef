import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Ctrl-G on the password line: a password from the system's CSPRNG with every class AD's
/// complexity counts, set on one user, shown once in a dialog and gone from the screen after it.
@Suite("Generated password", .timeLimit(.minutes(2)))
@MainActor
struct GeneratedPasswordTests {
    let clock = ManualClock()

    final class RecordingClipboard: Clipboard {
        var copied: [String] = []
        func copy(_ text: String) { copied.append(text) }
    }

    func app(_ directory: InMemoryDirectory, clipboard: RecordingClipboard? = nil) async -> AppModel {
        await directory.setTraits(HelpDeskTests.ldapLike)
        let app = AppModel(directory: directory, clock: clock, perPage: 50, clipboard: clipboard)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { app.traits == HelpDeskTests.ldapLike })
        return app
    }

    /// Every class AD's default complexity counts, only from the alphabet, no look-alike.
    static func satisfiesTheClasses(_ password: String) -> Bool {
        password.count == GeneratedPassword.length
            && GeneratedPassword.classes.allSatisfy { characters in password.contains(where: characters.contains) }
            && password.allSatisfy { character in GeneratedPassword.classes.contains { $0.contains(character) } }
            && !password.contains(where: "0Oo1lI| \"'\\".contains)
    }

    @Test func generatedPasswordsHaveEveryClassAndDoNotRepeat() {
        let passwords = (0..<2000).map { _ in GeneratedPassword.make() }
        #expect(passwords.allSatisfy(Self.satisfiesTheClasses))
        #expect(Set(passwords).count == passwords.count)
        // Every character of the alphabet turns up: the draw covers all of it.
        let seen = Set(passwords.joined())
        #expect(seen == Set(GeneratedPassword.classes.joined()))
    }

    @Test func aPasswordHoldingPartOfTheNameIsDrawnAgain() {
        // Most draws hold three letters in a row; told to avoid every such run, none does.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let everyRun = letters.flatMap { a in letters.flatMap { b in letters.map { c in String([a, b, c]) } } }
        let threeLetters = { (password: String) in everyRun.contains { password.lowercased().contains($0) } }
        #expect((0..<20).map { _ in GeneratedPassword.make() }.filter(threeLetters).count >= 10)
        let avoiding = (0..<20).map { _ in GeneratedPassword.make(avoiding: ["Ann " + everyRun.joined(separator: "-")]) }
        #expect(avoiding.allSatisfy { !threeLetters($0) && Self.satisfiesTheClasses($0) })
    }

    @Test func ctrlGSetsAGeneratedPasswordAndShowsItOnceUntilClosed() async throws {
        let directory = InMemoryDirectory(users: HelpDeskTests.users(3))
        let clipboard = RecordingClipboard()
        let app = await app(directory, clipboard: clipboard)
        app.moveDown()
        app.startPasswordReset()
        #expect(app.canGeneratePassword)
        app.editLine(.insert("typed-then-dropped"))
        app.generatePassword()
        #expect(app.line == nil)
        guard case .choice(let nextLogon) = app.topScreen else { Issue.record("no next-logon question: \(app.topScreen)"); return }
        #expect(nextLogon.options.contains { $0.label == "Keep it as generated" })
        #expect(nextLogon.choose("y"))
        guard case .confirm(let question) = app.topScreen else { Issue.record("no confirmation"); return }
        app.confirm()
        await app.activity.waitForLoads()

        let user = User.fixture(number: 2)
        let stored = try #require(await directory.passwords[user.id])
        #expect(stored.mustChange)
        #expect(Self.satisfiesTheClasses(stored.password))
        #expect(await directory.passwords.count == 1, "only the selected user")
        let password = stored.password
        guard case .choice(let dialog) = app.topScreen else { Issue.record("no password dialog: \(app.topScreen)"); return }
        #expect(dialog.message == "New password: \(password)", "the password the directory received")
        #expect(dialog.title.contains(user.name))
        #expect(dialog.escapeLabel == "Close")

        let run = try #require(app.bulkRun)
        let elsewhere = [question.message, run.logLine, "\(run.action)", app.statusMessage?.text ?? ""]
        #expect(elsewhere.allSatisfy { !$0.contains(password) })

        app.close()
        guard case .list = app.topScreen else { Issue.record("the dialog stays: \(app.topScreen)"); return }
        #expect(app.statusMessage?.text.contains(password) == false)
        #expect(app.statusMessage?.text.hasPrefix("Reset the password of 1 user") == true)
        #expect(clipboard.copied.isEmpty, "the clipboard only when asked")
        // Shown once: nothing brings it back (the bulk menu has no summary to show again).
        app.openBulkMenu()
        guard case .choice(let menu) = app.topScreen else { Issue.record("no bulk menu"); return }
        #expect(!menu.message.contains(password) && menu.title == "Bulk actions")
    }

    @Test func yInTheDialogCopiesItAndCloses() async throws {
        let directory = InMemoryDirectory(users: HelpDeskTests.users(2))
        let clipboard = RecordingClipboard()
        let app = await app(directory, clipboard: clipboard)
        app.startPasswordReset()
        app.generatePassword()
        guard case .choice(let nextLogon) = app.topScreen else { Issue.record("no next-logon question"); return }
        nextLogon.choose("n")
        app.confirm()
        await app.activity.waitForLoads()
        let stored = try #require(await directory.passwords[User.fixture(number: 1).id])
        #expect(!stored.mustChange)
        guard case .choice(let dialog) = app.topScreen else { Issue.record("no password dialog"); return }
        #expect(dialog.choose("y"))
        #expect(clipboard.copied == [stored.password])
        guard case .list = app.topScreen else { Issue.record("the dialog stays"); return }
        #expect(app.statusMessage?.text == "The password is on the clipboard")
    }

    @Test func withMarksTheLineSaysGenerationIsForOneUserAndNothingIsSent() async throws {
        let directory = InMemoryDirectory(users: HelpDeskTests.users(3))
        let app = await app(directory)
        app.toggleMark()
        app.toggleMark()
        app.startPasswordReset()
        #expect(!app.canGeneratePassword)
        app.generatePassword()
        #expect(app.line?.purpose == .newPassword, "the line stays open for a typed one")
        #expect(app.line?.problem?.contains("one user at a time") == true)
        #expect(await directory.calls.allSatisfy { $0.operation != .resetPassword })
    }

    @Test func aRefusedResetShowsNoPasswordAndItsRetryShowsTheOneSent() async throws {
        let directory = InMemoryDirectory(users: HelpDeskTests.users(2))
        let app = await app(directory)
        await directory.failNext(.resetPassword, with: .forbidden(ErrorBody(code: "insufficient_access", message: "Not allowed.")))
        app.startPasswordReset()
        app.generatePassword()
        guard case .choice(let nextLogon) = app.topScreen else { Issue.record("no next-logon question"); return }
        nextLogon.choose("n")
        app.confirm()
        await app.activity.waitForLoads()
        guard case .bulkSummary(let run) = app.topScreen else { Issue.record("no summary: \(app.topScreen)"); return }
        #expect(run.progress.failed == 1)
        #expect(await directory.passwords.isEmpty)
        app.retry()
        await app.activity.waitForLoads()
        let stored = try #require(await directory.passwords[User.fixture(number: 1).id])
        guard case .choice(let dialog) = app.topScreen else { Issue.record("no password dialog after the retry: \(app.topScreen)"); return }
        #expect(dialog.message == "New password: \(stored.password)")
    }
}
