import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

/// The form asks for what the directory has: a SCIM service's `userName` (following the email
/// until typed over), no role picker where the service knows no roles, and only the statuses
/// the service can hold.
@Suite("UserFormModel on other directories", .timeLimit(.minutes(5)))
@MainActor
struct UserFormTraitsTests {
    let repository = InMemoryDirectory(users: searchDirectory)
    let activity = Activity(clock: ManualClock())
    static let scimWithoutRoles = DirectoryTraits(dialect: .scim, canSort: false, hasRoles: false, statuses: [.active, .suspended])

    func form(_ mode: FormMode = .create, traits: DirectoryTraits) -> UserFormModel {
        UserFormModel(mode: mode, directory: repository, activity: activity, traits: traits)
    }

    func type(_ text: String, into form: UserFormModel) {
        for character in text { form.edit(.insert(String(character))) }
    }

    @Test func theRosterAPIFormHasNoUserNameAndKeepsTheRolePicker() {
        let form = form(traits: .rosterAPI)
        #expect(form.fields == [.name, .email, .role, .status])
        #expect(form.statusOptions == Status.known)
    }

    @Test func aSCIMFormAsksForTheUserNameWhichFollowsTheEmailUntilTypedOver() async throws {
        let form = form(traits: Self.scimWithoutRoles)
        #expect(form.fields == [.name, .email, .userName, .status])
        #expect(form.statusOptions == [.active, .suspended], "SCIM's active has no invited")
        type("Zoe Quinn", into: form)
        form.focusNext()
        type("zoe@example.com", into: form)
        #expect(form.userName.text == "zoe@example.com")
        #expect(form.draft.userName == "zoe@example.com")

        form.focusNext()
        #expect(form.focus == .userName)
        for _ in "zoe@example.com" { form.edit(.deleteBackward) }
        type("zquinn", into: form)
        #expect(form.userName.text == "zquinn")
        form.focusPrevious()
        type("m", into: form)
        #expect(form.email.text == "zoe@example.comm")
        #expect(form.userName.text == "zquinn", "typed over: no longer follows the email")
        form.focusNext()
        form.focusNext()
        #expect(form.focus == .status, "no role picker on a service without roles")
        form.focusNext()
        #expect(form.focus == .name, "the focus wraps over the fields shown")

        #expect(form.draft.role == nil, "no role is sent where the service has none")
        #expect(form.submit())
        await activity.waitForLoads()
        let created = await repository.calls.compactMap { if case .create(let draft) = $0 { draft } else { nil } }
        #expect(created.first?.userName == "zquinn")
    }

    @Test func aSCIMEditFormStartsFromTheUsersUserNameAndRebasesIt() {
        var user = searchDirectory[0]
        user.scim = SCIMDetails(userName: "asilva")
        let form = form(.edit(user), traits: Self.scimWithoutRoles)
        #expect(form.userName.text == "asilva")
        #expect(!form.isDirty)
        form.focus(on: .email)
        type("x", into: form)
        #expect(form.userName.text == "asilva", "an existing user's name does not follow the email")
        var server = user
        server.scim = SCIMDetails(userName: "ana.silva")
        form.rebase(onto: server)
        #expect(form.userName.text == "ana.silva", "not edited here: takes the server's")
    }

    @Test func aTakenUserNameShowsUnderTheUserNameAndAFieldNotShownInTheFormMessage() async throws {
        let scim = form(traits: Self.scimWithoutRoles)
        type("Ana Again", into: scim)
        scim.focusNext()
        type("new@example.com", into: scim)
        await repository.failNext(.create, with: .conflict(ErrorBody(code: "uniqueness", message: "taken",
                                                                      fields: [FieldError(field: "userName", message: "This username is already taken.")])))
        #expect(scim.submit())
        await activity.waitForLoads()
        #expect(scim.error(for: .userName) == "This username is already taken.")
        #expect(scim.focus == .userName)

        let roster = form(traits: .rosterAPI)
        type("Ana Again", into: roster)
        roster.focusNext()
        type("new@example.com", into: roster)
        await repository.failNext(.create, with: .validationFailed(ErrorBody(code: "invalid", message: "invalid",
                                                                             fields: [FieldError(field: "userName", message: "Bad username.")])))
        #expect(roster.submit())
        await activity.waitForLoads()
        #expect(roster.formError == "Bad username.", "a field the form does not show goes to the form's message")
    }

    @Test func aUserNameWithAControlCharacterIsRefusedHere() {
        let form = form(traits: Self.scimWithoutRoles)
        form.setText("Zoe", for: .name)
        form.setText("zoe@example.com", for: .email)
        form.setText("zoe\u{1B}[31m", for: .userName)
        #expect(!form.submit())
        #expect(form.error(for: .userName) == "Username must not contain control characters.")
    }
}
