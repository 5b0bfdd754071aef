import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

/// A create whose answer was lost, on a server that replays no Idempotency-Key: the directory
/// looked the email up and found the user (`APIError.createOutcomeUnknown(existing:)`, see
/// RosterKitTests/WriteRetryTests.swift). Sending again would be refused as a duplicate, so
/// the dialog offers to open the user found, not to retry.
@Suite("AppModel: a create whose answer was lost", .timeLimit(.minutes(2)))
@MainActor
struct LostCreateAnswerTests {
    let clock = ManualClock()
    let repository = InMemoryDirectory(users: searchDirectory)
    let app: AppModel

    init() {
        app = AppModel(directory: repository, clock: clock)
        app.setListViewport(height: 10)
    }

    /// Submits a new user whose create "lands" but whose answer is lost.
    func submitLostCreate(found: Bool) async throws -> (form: UserFormModel, landed: User) {
        app.start()
        await app.activity.waitForLoads()
        app.newUser()
        guard case .form(let form) = app.topScreen else { throw LostCreateError("no form") }
        form.focus(on: .name)
        form.setText("Zoe Quinn", for: .name)
        form.focus(on: .email)
        form.setText("zoe@example.com", for: .email)
        var landed = searchDirectory[0]
        landed.id = "landed-zoe"
        landed.name = "Zoe Quinn"
        landed.email = "zoe@example.com"
        if found { await repository.insert(landed) }
        await repository.failNext(.create, with: .createOutcomeUnknown(existing: found ? landed : nil))
        app.confirm()
        await app.activity.waitForLoads()
        return (form, landed)
    }

    @Test func theDialogOffersTheUserFoundAndOpeningItClosesTheFormAndSelectsThem() async throws {
        let (form, landed) = try await submitLostCreate(found: true)
        guard case .error(let dialog) = app.topScreen else {
            Issue.record("expected the error dialog, got \(app.topScreen)")
            return
        }
        #expect(dialog.message.contains("a user with this email now exists (Zoe Quinn"))
        #expect(dialog.suggestion?.contains("refused as a duplicate") == true)
        #expect(!dialog.canRetry, "no retry: it would be refused, or make a second user")
        #expect(dialog.canOpen && dialog.openLabel == "Open Zoe Quinn")
        #expect(!app.canRetry)

        let creates = await repository.callCount(.create)
        #expect(app.openFound())
        #expect(app.screens == [.list], "the dialog and the form are closed")
        #expect(!app.screens.contains(.form(form)))
        await app.activity.waitForLoads()
        #expect(app.list.selectedUser?.id == landed.id)
        #expect(app.detail.user?.id == landed.id)
        #expect(app.statusMessage?.text == "Opened Zoe Quinn")
        #expect(await repository.callCount(.create) == creates, "nothing is sent again")
    }

    @Test func whenNoUserWasFoundTheDialogStillOffersARetryAndNothingToOpen() async throws {
        _ = try await submitLostCreate(found: false)
        guard case .error(let dialog) = app.topScreen else {
            Issue.record("expected the error dialog, got \(app.topScreen)")
            return
        }
        #expect(dialog.canRetry && !dialog.canOpen)
        #expect(!app.openFound())
        guard case .error = app.topScreen else {
            Issue.record("o on a dialog with nothing to open closed it")
            return
        }
    }
}

struct LostCreateError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
