import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("UserFormModel", .timeLimit(.minutes(5)))
@MainActor
struct UserFormModelTests {
    let repository = InMemoryDirectory(users: searchDirectory)
    let activity = Activity(clock: ManualClock())

    func form(_ mode: FormMode = .create) -> UserFormModel {
        UserFormModel(mode: mode, directory: repository, activity: activity)
    }

    func type(_ text: String, into form: UserFormModel) {
        for character in text { form.edit(.insert(String(character))) }
    }

    /// A create form holding a valid new user.
    func filledForm() -> UserFormModel {
        let form = form()
        type("Zoe Quinn", into: form)
        form.focusNext()
        type("zoe@example.com", into: form)
        return form
    }

    // MARK: Fields

    @Test func aNewFormStartsCleanWithDefaults() {
        let form = form()
        #expect(form.title == "New user")
        #expect(form.submitLabel == "Create")
        #expect(form.name.text == "")
        #expect(form.email.text == "")
        #expect(form.role == .member)
        #expect(form.status == .active)
        #expect(form.focus == .name)
        #expect(!form.isDirty)
        #expect(form.submission == .editing)
        for field in FormField.allCases { #expect(form.error(for: field) == nil) }
    }

    @Test func anEditFormHoldsTheUser() {
        let ana = searchDirectory[0]
        let form = form(.edit(ana))
        #expect(form.title == "Edit Ana Silva")
        #expect(form.submitLabel == "Save")
        #expect(form.name.text == "Ana Silva")
        #expect(form.email.text == ana.email)
        #expect(form.role == ana.role)
        #expect(form.status == ana.status)
        #expect(!form.isDirty)
    }

    @Test func typingGoesToTheFocusedFieldAndMakesTheFormDirty() {
        let form = form()
        type("Zoe", into: form)
        form.edit(.moveLeft)
        form.edit(.deleteBackward)
        #expect(form.name == { var f = TextFieldState("Ze"); f.apply(.moveLeft); return f }())
        #expect(form.textField(.name)?.text == "Ze")
        #expect(form.isDirty)
        form.edit(.deleteToStart)
        form.edit(.deleteToEnd)
        #expect(form.name.text == "")
        #expect(!form.isDirty) // back to how it started
    }

    @Test func focusCyclesThroughTheFields() {
        let form = form()
        form.focusNext()
        #expect(form.focus == .email)
        form.focusNext()
        form.focusNext()
        #expect(form.focus == .status)
        form.focusNext()
        #expect(form.focus == .name)
        form.focusPrevious()
        #expect(form.focus == .status)
        form.focus(on: .email)
        #expect(form.focus == .email)
    }

    @Test func pickersCycleThroughTheKnownValues() {
        let form = form()
        form.focus(on: .role)
        form.selectNextOption()
        #expect(form.role == .viewer)
        form.edit(.moveRight) // Right in a picker
        #expect(form.role == .admin)
        form.edit(.moveLeft)
        form.edit(.moveLeft)
        #expect(form.role == .member)
        form.edit(.insert("x")) // a picker takes no text
        #expect(form.role == .member)
        form.focus(on: .status)
        form.selectPreviousOption()
        #expect(form.status == .invited)
        #expect(form.isDirty)
        form.select(status: .active)
        #expect(!form.isDirty)
    }

    @Test func aRoleThisClientDoesNotKnowIsKeptUnlessChanged() async {
        var owner = searchDirectory[0]
        owner.role = .unknown("owner")
        await repository.insert(owner)
        let form = form(.edit(owner))
        #expect(form.roleOptions == [.admin, .member, .viewer, .unknown("owner")])
        #expect(form.draft.role == nil) // left out: the server keeps it
        #expect(form.error(for: .role) == nil)
        form.setText("Ana Owner", for: .name)
        #expect(form.submit())
        await activity.waitForLoads()
        #expect(await repository.storedUser(id: owner.id)?.role == .unknown("owner"))
        #expect(await repository.storedUser(id: owner.id)?.name == "Ana Owner")
    }

    // MARK: Validation as the person types

    @Test func leavingAnEmptyRequiredFieldShowsTheProblem() {
        let form = form()
        #expect(form.error(for: .name) == nil) // not before the person has been there
        form.focusNext()
        #expect(form.error(for: .name) == UserValidation.nameProblem(""))
        #expect(form.error(for: .name) == "Name is required.")
        // From then on it follows each keystroke.
        form.focus(on: .name)
        type("Z", into: form)
        #expect(form.error(for: .name) == nil)
        form.edit(.deleteBackward)
        #expect(form.error(for: .name) == "Name is required.")
    }

    @Test func anUnfinishedEmailIsNotFlaggedUntilTheFieldIsLeft() {
        let form = form()
        form.focus(on: .email)
        type("zoe@", into: form)
        #expect(form.error(for: .email) == nil)
        form.focusNext()
        #expect(form.error(for: .email) == UserValidation.emailProblem("zoe@"))
        form.focus(on: .email)
        type("example.com", into: form)
        #expect(form.error(for: .email) == nil)
    }

    @Test func anEditThatBreaksAValidValueIsFlaggedAtOnce() {
        let form = form(.edit(searchDirectory[0]))
        form.focus(on: .email)
        form.edit(.deleteToStart)
        #expect(form.focus == .email)
        #expect(form.error(for: .email) == "Email is required.")
        #expect(form.error(for: .name) == nil)
    }

    @Test func controlCharactersInANameAreFlagged() {
        let form = form()
        form.setText("Zoe\u{1B}[2J", for: .name)
        form.focusNext()
        #expect(form.error(for: .name) == UserValidation.nameProblem("Zoe\u{1B}[2J"))
    }

    @Test func anInvalidFormSendsNothingAndShowsEveryProblem() async {
        let form = form()
        form.focus(on: .status)
        #expect(!form.submit())
        #expect(form.submission == .editing)
        #expect(form.error(for: .name) == "Name is required.")
        #expect(form.error(for: .email) == "Email is required.")
        #expect(form.focus == .name) // the first problem
        await activity.waitForLoads()
        #expect(await repository.callCount(.create) == 0)
    }

    // MARK: Submitting

    @Test func submitSavesAndHandsBackTheUser() async {
        let form = filledForm()
        var saved: [User] = []
        form.onSaved = { saved.append($0) }
        #expect(form.submit())
        #expect(form.submission == .submitting)
        #expect(form.isSubmitting)
        #expect(activity.isBusy)
        await activity.waitForLoads()

        #expect(saved.count == 1)
        #expect(saved.first?.name == "Zoe Quinn")
        #expect(saved.first?.email == "zoe@example.com")
        #expect(form.submission == .saved(saved[0]))
        #expect(await repository.calls.last == .create(UserDraft(name: "Zoe Quinn", email: "zoe@example.com", role: .member, status: .active)))
    }

    @Test func whatIsSentIsTrimmedAsTheServerStoresIt() async {
        let form = form()
        form.setText("  Zoe Quinn ", for: .name)
        form.setText(" zoe@example.com", for: .email)
        form.submit()
        await activity.waitForLoads()
        #expect(await repository.calls.last == .create(UserDraft(name: "Zoe Quinn", email: "zoe@example.com", role: .member, status: .active)))
    }

    @Test func sendingTheSameDraftAgainAfterAFailureIsTheSameActionWithTheSameKey() async {
        let form = filledForm()
        await repository.failNext(.create, with: .timedOut, times: 2)
        form.submit()
        await activity.waitForLoads()
        #expect(form.retry(), "the error dialog's retry")
        await activity.waitForLoads()
        form.submit() // Enter once more, nothing changed
        await activity.waitForLoads()
        let keys = await repository.idempotencyKeys
        #expect(keys.count == 3)
        #expect(Set(keys).count == 1, "one action, one key: a server that replays keys creates the user once")
        #expect(await repository.callCount(.create) == 3)
    }

    @Test func aChangedDraftIsANewActionWithANewKey() async {
        let form = filledForm()
        await repository.failNext(.create, with: .timedOut)
        form.submit()
        await activity.waitForLoads()
        form.setText("Zoe Q. Quinn", for: .name)
        form.submit()
        await activity.waitForLoads()
        let keys = await repository.idempotencyKeys
        #expect(keys.count == 2 && keys[0] != keys[1])
    }

    @Test func aDoubleSubmitSendsOnce() async {
        let form = filledForm()
        let gate = await repository.holdNext(.create)
        #expect(form.submit())
        #expect(!form.submit())
        await gate.waitForArrivals()
        #expect(!form.submit())
        gate.open()
        await activity.waitForLoads()
        #expect(!form.submit()) // saved: the form is done
        #expect(await repository.callCount(.create) == 1)
    }

    @Test func fieldsAreReadOnlyWhileSubmitting() async {
        let form = filledForm()
        let gate = await repository.holdNext(.create)
        form.submit()
        form.edit(.insert("!"))
        form.setText("Other", for: .name)
        form.focus(on: .role)
        form.selectNextOption()
        #expect(form.name.text == "Zoe Quinn")
        #expect(form.email.text == "zoe@example.com")
        #expect(form.role == .member)
        gate.open()
        await activity.waitForLoads()
    }

    @Test func editingSendsAnUpdateOfThatUser() async {
        let bob = searchDirectory[5]
        let form = form(.edit(bob))
        var saved: User?
        form.onSaved = { saved = $0 }
        form.focus(on: .status)
        form.select(status: .suspended)
        form.submit()
        await activity.waitForLoads()
        #expect(await repository.calls.last == .update(id: bob.id, UserDraft(name: bob.name, email: bob.email, role: bob.role, status: .suspended)))
        #expect(saved?.id == bob.id)
        #expect(saved?.status == .suspended)
    }

    @Test func aValidationFailureWithTwoFieldErrorsPutsEachUnderItsField() async {
        let form = filledForm()
        let failure = APIError.validationFailed(ErrorBody(code: "validation_failed", message: "Some fields are not valid.", fields: [
            FieldError(field: "name", message: "That name is reserved."),
            FieldError(field: "email", message: "That domain does not take mail."),
        ]))
        await repository.failNext(.create, with: failure)
        var failures: [APIError] = []
        form.onFailure = { failures.append($0) }
        form.submit()
        await activity.waitForLoads()

        #expect(form.submission == .editing)
        #expect(form.error(for: .name) == "That name is reserved.")
        #expect(form.error(for: .email) == "That domain does not take mail.")
        #expect(form.error(for: .role) == nil)
        #expect(form.formError == nil)
        #expect(form.focus == .name)
        #expect(failures.isEmpty) // no dialog: the fields say it all

        // Editing a field clears the server's message on it, not on the other.
        form.edit(.insert("x"))
        #expect(form.error(for: .name) == nil)
        #expect(form.error(for: .email) == "That domain does not take mail.")
    }

    @Test func aTakenEmailLandsOnTheEmailField() async {
        let form = form()
        form.setText("Another Ana", for: .name)
        form.setText(searchDirectory[0].email.uppercased(), for: .email)
        form.submit()
        await activity.waitForLoads()
        #expect(form.submission == .editing)
        #expect(form.error(for: .email) == "This email is already taken.")
        #expect(form.focus == .email)
        #expect(form.error(for: .name) == nil)
    }

    @Test func aFieldErrorForNoKnownFieldIsShownForTheForm() async {
        let form = filledForm()
        await repository.failNext(.create, with: .validationFailed(ErrorBody(
            code: "validation_failed", message: "Some fields are not valid.",
            fields: [FieldError(field: "phone", message: "Phone is not accepted.")])))
        form.submit()
        await activity.waitForLoads()
        #expect(form.formError == "Phone is not accepted.")
        for field in FormField.allCases { #expect(form.error(for: field) == nil) }
    }

    @Test func aConflictWithoutFieldsIsShownForTheForm() async {
        let form = filledForm()
        await repository.failNext(.create, with: .conflict(ErrorBody(code: "conflict", message: "Someone else changed this user.")))
        form.submit()
        await activity.waitForLoads()
        #expect(form.submission == .editing)
        #expect(form.formError == "Someone else changed this user.")
        form.edit(.insert("x"))
        #expect(form.formError == nil)
    }

    @Test func anyOtherFailureOffersARetryOfTheSameDraft() async {
        let form = filledForm()
        var failures: [APIError] = []
        var saved: [User] = []
        form.onFailure = { failures.append($0) }
        form.onSaved = { saved.append($0) }
        await repository.failNext(.create, with: unavailable)
        form.submit()
        await activity.waitForLoads()
        #expect(form.submission == .failed(unavailable))
        #expect(failures == [unavailable])
        #expect(form.name.text == "Zoe Quinn") // nothing the person typed is lost

        #expect(form.retry())
        #expect(form.submission == .submitting)
        await activity.waitForLoads()
        let calls = await repository.calls.filter { if case .create = $0 { true } else { false } }
        #expect(calls.count == 2)
        #expect(calls[0] == calls[1])
        #expect(saved.count == 1)
    }

    @Test func retryWithoutAFailureDoesNothing() async {
        let form = filledForm()
        #expect(!form.retry())
        await repository.failNext(.create, with: .validationFailed(nil))
        form.submit()
        await activity.waitForLoads()
        #expect(!form.retry()) // a field problem is fixed by editing, not retrying
        #expect(await repository.callCount(.create) == 1)
    }

    @Test func afterAFailureAnEditedFormSendsTheNewDraft() async {
        let form = filledForm()
        await repository.failNext(.create, with: .offline)
        form.submit()
        await activity.waitForLoads()
        // After a failure the person may fix something and submit again: a new draft.
        form.focus(on: .name)
        form.edit(.insert("!"))
        #expect(form.submit())
        await activity.waitForLoads()
        #expect(await repository.calls.last == .create(UserDraft(name: "Zoe Quinn!", email: "zoe@example.com", role: .member, status: .active)))
    }
}
