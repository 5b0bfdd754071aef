import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Nothing typed is lost: quitting with a changed form asks; a signal keeps the draft; the
/// next start offers it back; a failed save keeps the form.
@Suite("Draft on quit", .timeLimit(.minutes(5)))
@MainActor
struct DraftOnQuitTests {
    let clock = ManualClock()
    let repository = InMemoryDirectory(users: searchDirectory)
    let app: AppModel

    init() {
        app = AppModel(directory: repository, clock: clock)
        app.setListViewport(height: 10)
    }

    func started() async {
        app.start()
        await app.activity.waitForLoads()
    }

    /// The create form with a name typed.
    func typedNewUser() -> UserFormModel? {
        app.newUser()
        guard case .form(let form) = app.topScreen else { return nil }
        form.setText("Zoë Lima", for: .name)
        form.focus(on: .email)
        form.setText("zoe@example.org", for: .email)
        return form
    }

    var topConfirm: ConfirmModel? {
        if case .confirm(let confirm) = app.topScreen { confirm } else { nil }
    }

    @Test func quitWithNoChangesQuitsAtOnce() async {
        await started()
        app.requestQuit()
        #expect(app.isQuitRequested)
        #expect(!app.keepsDraftOnExit)
    }

    @Test func quitWithAChangedFormAsksAndKeepEditingGoesBackToIt() async throws {
        await started()
        let form = try #require(typedNewUser())
        app.requestQuit()
        let question = try #require(topConfirm)
        #expect(question.title == "Quit without saving?")
        #expect(question.confirmLabel == "Discard and quit")
        #expect(question.cancelLabel == "Keep editing")
        #expect(!app.isQuitRequested)

        app.close() // n / Esc: keep editing
        #expect(app.topScreen == .form(form))
        #expect(form.name.text == "Zoë Lima")
        #expect(!app.isQuitRequested)

        app.requestQuit()
        app.confirm() // y: discard and quit
        #expect(app.isQuitRequested)
        #expect(!app.keepsDraftOnExit, "discarded on purpose: nothing kept")
    }

    @Test func aSecondCtrlCWhileAskingQuitsKeepingTheDraft() async throws {
        await started()
        _ = try #require(typedNewUser())
        app.requestQuit()
        app.requestQuit()
        #expect(app.isQuitRequested)
        #expect(app.keepsDraftOnExit)
        #expect(app.unsavedDraft?.name == "Zoë Lima")
    }

    @Test func aSignalKeepsTheDraftOfTheChangedForm() async throws {
        await started()
        app.moveDown()
        app.editSelected()
        guard case .form(let form) = app.topScreen else { throw TestFailure("no form") }
        form.setText("Anabel Ruiz-Costa", for: .name)
        form.select(role: .admin)
        app.quitKeepingDraft()
        #expect(app.isQuitRequested)
        #expect(app.keepsDraftOnExit)
        let draft = try #require(app.unsavedDraft)
        #expect(draft.original?.id == searchDirectory[1].id)
        #expect(draft.name == "Anabel Ruiz-Costa")
        #expect(draft.role == .admin)
        #expect(draft.label == "your edit of Anabel Ruiz")
    }

    @Test func aSignalWithNoChangesKeepsNothing() async {
        await started()
        app.newUser()
        app.quitKeepingDraft()
        #expect(app.isQuitRequested)
        #expect(!app.keepsDraftOnExit)
    }

    @Test func theNextStartOffersTheDraftAndRestoresTheForm() async throws {
        let draft = UnsavedDraft(original: searchDirectory[1], name: "Anabel Ruiz-Costa", email: searchDirectory[1].email,
                                 role: .admin, status: .suspended)
        await started()
        var answer: Bool?
        app.offerRestore(draft) { answer = $0 }
        let offer = try #require(topConfirm)
        #expect(offer.message == "Restore the unsaved draft of your edit of Anabel Ruiz?")
        app.confirm()
        #expect(answer == true)
        guard case .form(let form) = app.topScreen else { throw TestFailure("no form") }
        #expect(form.mode == .edit(searchDirectory[1]))
        #expect(form.name.text == "Anabel Ruiz-Costa")
        #expect(form.role == .admin)
        #expect(form.status == .suspended)
        #expect(form.isDirty)

        // And it saves like any edit.
        form.submit()
        await app.activity.waitForLoads()
        #expect(await repository.storedUser(id: searchDirectory[1].id)?.name == "Anabel Ruiz-Costa")
    }

    @Test func declinedTheDraftIsForgotten() async throws {
        await started()
        var answer: Bool?
        app.offerRestore(UnsavedDraft(original: nil, name: "Zoë", email: "", role: .member, status: .active)) { answer = $0 }
        #expect(topConfirm?.message == "Restore the unsaved draft of the new user Zoë?")
        app.close()
        #expect(answer == false)
        #expect(app.screens == [.list])
    }

    @Test func aFailedSaveKeepsTheFormAndQInTheErrorDialogAsksFirst() async throws {
        await started()
        let form = try #require(typedNewUser())
        await repository.failNext(.create, with: unavailable)
        form.submit()
        await app.activity.waitForLoads()
        guard case .error = app.topScreen else { throw TestFailure("no error dialog: \(app.topScreen)") }
        #expect(app.screens.contains(.form(form)), "the form stays under the dialog")
        #expect(form.name.text == "Zoë Lima")
        #expect(form.email.text == "zoe@example.org")

        app.requestQuit() // q in the error dialog
        #expect(!app.isQuitRequested, "the form is not dropped")
        #expect(topConfirm?.title == "Quit without saving?")
        app.close()
        guard case .error = app.topScreen else { throw TestFailure("the error dialog is back") }
        app.close()
        #expect(app.topScreen == .form(form))
        #expect(form.name.text == "Zoë Lima")
        // Enter sends the same draft again, and it is saved.
        form.submit()
        await app.activity.waitForLoads()
        #expect(await repository.count == searchDirectory.count + 1)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

@Suite("Copy")
@MainActor
struct CopyTests {
    final class RecordingClipboard: Clipboard {
        var copied: [String] = []
        func copy(_ text: String) { copied.append(text) }
    }

    @Test func yCopiesTheSelectedEmailAndSaysSo() async {
        let clipboard = RecordingClipboard()
        let app = AppModel(directory: InMemoryDirectory(users: searchDirectory), clock: ManualClock(), clipboard: clipboard)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        app.moveDown()
        app.copySelectedEmail()
        #expect(clipboard.copied == [searchDirectory[1].email])
        #expect(app.statusMessage?.text == "Copied \(searchDirectory[1].email)")
    }
}
