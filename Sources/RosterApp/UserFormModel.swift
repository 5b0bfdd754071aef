import Observation
import RosterJournal
import RosterKit

/// The create and edit form. Validation is `UserValidation`, the server's own rules, so the
/// form and the server cannot disagree. A field's problem shows once the person leaves the
/// field, or as soon as an edit breaks a value that was valid, and from then on follows every
/// keystroke; a submit shows them all.
@MainActor
@Observable
public final class UserFormModel {
    public private(set) var mode: FormMode
    public private(set) var name: TextFieldState
    public private(set) var email: TextFieldState
    /// SCIM's `userName`: shown on SCIM services only. A new user's follows the email until
    /// the person types one of their own (most services key users on it and expect the email).
    public private(set) var userName: TextFieldState
    public private(set) var role: Role
    public private(set) var status: Status
    /// What the pickers offer: the known values, plus the user's own if this client does not
    /// know it (so editing such a user does not silently change it).
    public let roleOptions: [Role]
    public let statusOptions: [Status]
    /// The fields this directory asks for, in order (`FormField.fields(for:)`).
    public let fields: [FormField]
    public private(set) var focus: FormField = .name
    public private(set) var submission: SubmissionState = .editing
    /// A problem the server reported that belongs to no field.
    public private(set) var formError: String?

    /// Fields whose client-side problem is shown.
    private var revealed: Set<FormField> = []
    /// Field errors from the server's last answer (422, 409), until the field is edited.
    private var serverErrors: [FormField: String] = [:]

    /// Told when the server saved the user.
    @ObservationIgnored public var onSaved: (@MainActor (User) -> Void)?
    /// Told when a submit failed for a reason that is not about a field (the error dialog).
    @ObservationIgnored public var onFailure: (@MainActor (APIError) -> Void)?
    /// Told when a save was refused because someone changed the user meanwhile (412), with the
    /// server's version.
    @ObservationIgnored public var onConflict: (@MainActor (EditConflict) -> Void)?

    @ObservationIgnored private let directory: any Directory
    /// A save is journalled (create, or an edit with its values before).
    @ObservationIgnored private let recorder: ChangeRecorder
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private var initial: (name: String, email: String, userName: String, role: Role, status: Status)
    @ObservationIgnored private var userNameFollowsEmail: Bool
    @ObservationIgnored private var lastDraft: UserDraft?
    /// The idempotency key of the create in progress: the same draft sent again (a retry from
    /// the error dialog, or Enter once more after a failure) is the same action, so it keeps
    /// its key and a server that replays keys creates the user once.
    @ObservationIgnored private var idempotencyKey = IdempotencyKey.make()

    public init(mode: FormMode, directory: any Directory, activity: Activity, traits: DirectoryTraits = .rosterAPI,
                recorder: ChangeRecorder = .none) {
        self.mode = mode
        self.directory = directory
        self.recorder = recorder
        self.activity = activity
        switch mode {
        case .create:
            initial = ("", "", "", .member, .active)
            userNameFollowsEmail = true
        case .edit(let user):
            initial = (user.name, user.email, user.scim?.userName ?? "", user.role, user.status)
            userNameFollowsEmail = false
        }
        name = TextFieldState(initial.name)
        email = TextFieldState(initial.email)
        userName = TextFieldState(initial.userName)
        role = initial.role
        status = initial.status
        fields = FormField.fields(for: traits)
        roleOptions = Role.known + (initial.role.isKnown ? [] : [initial.role])
        statusOptions = traits.statuses + (traits.statuses.contains(initial.status) ? [] : [initial.status])
    }

    // MARK: What the view reads

    public var title: String {
        switch mode {
        case .create: "New user"
        case .edit(let user): "Edit \(user.name)"
        }
    }

    public var submitLabel: String {
        if case .create = mode { return "Create" }
        return "Save"
    }

    public var isDirty: Bool {
        name.text != initial.name || email.text != initial.email || userName.text != initial.userName
            || role != initial.role || status != initial.status
    }

    public var isSubmitting: Bool { submission == .submitting }

    /// What the form holds, when it has changes worth keeping.
    public var unsavedDraft: UnsavedDraft? {
        guard isDirty else { return nil }
        let original: User? = if case .edit(let user) = mode { user } else { nil }
        return UnsavedDraft(original: original, name: name.text, email: email.text, userName: userName.text, role: role, status: status)
    }

    /// Puts a saved draft's values back into the fields.
    public func restore(_ draft: UnsavedDraft) {
        setText(draft.name, for: .name)
        setText(draft.email, for: .email)
        if fields.contains(.userName) { setText(draft.userName, for: .userName) }
        select(role: draft.role)
        select(status: draft.status)
    }

    /// The problem shown under `field`: the server's, else the client's once revealed.
    public func error(for field: FormField) -> String? {
        if let message = serverErrors[field] { return message }
        guard revealed.contains(field) else { return nil }
        return clientProblem(field)
    }

    /// The text state of a text field (nil for pickers).
    public func textField(_ field: FormField) -> TextFieldState? {
        switch field {
        case .name: name
        case .email: email
        case .userName: userName
        case .role, .status: nil
        }
    }

    /// What a submit sends: trimmed as the server stores it. A role or status this client does
    /// not know is left out, which the server reads as "unchanged".
    /// Without a role picker the role is left out too; an empty user name means "the email".
    public var draft: UserDraft {
        UserValidation.normalized(UserDraft(
            name: name.text, email: email.text,
            role: role.isKnown && fields.contains(.role) ? role : nil, status: status.isKnown ? status : nil,
            userName: fields.contains(.userName) && !userName.text.isEmpty ? userName.text : nil))
    }

    // MARK: Editing

    /// One keystroke in the focused field. On a picker, Left and Right change the choice.
    public func edit(_ edit: TextEdit) {
        guard !isSubmitting else { return }
        switch (focus, edit) {
        case (.name, _), (.email, _), (.userName, _):
            let field = focus
            guard var state = textField(field) else { return }
            let before = state
            guard state.apply(edit) else {
                // A cursor move, or a key a full field refuses: nothing to validate again (the
                // draft's check reads every field, and a paste of a megabyte is a million keys).
                if state != before { store(state, in: field) }
                return
            }
            let wasValid = clientProblem(field) == nil
            store(state, in: field)
            fieldChanged(field, wasValid: wasValid)
        case (.role, .moveLeft), (.status, .moveLeft):
            selectPreviousOption()
        case (.role, .moveRight), (.status, .moveRight):
            selectNextOption()
        default:
            break
        }
    }

    /// Replaces a text field's whole text (a paste, or a test).
    public func setText(_ text: String, for field: FormField) {
        guard !isSubmitting, var state = textField(field) else { return }
        let wasValid = clientProblem(field) == nil
        guard state.text != text else { return }
        state.setText(text)
        store(state, in: field)
        fieldChanged(field, wasValid: wasValid)
    }

    private func store(_ state: TextFieldState, in field: FormField) {
        switch field {
        case .name: name = state
        case .email:
            email = state
            if userNameFollowsEmail, userName.text != state.text { userName = TextFieldState(state.text) }
        case .userName:
            userName = state
            // Typed over: from now on it is the person's own, unless they empty it again.
            userNameFollowsEmail = state.text.isEmpty || state.text == email.text
        case .role, .status: break
        }
    }

    public func focusNext() {
        focus(on: fields[((fields.firstIndex(of: focus) ?? 0) + 1) % fields.count])
    }

    public func focusPrevious() {
        focus(on: fields[((fields.firstIndex(of: focus) ?? 0) + fields.count - 1) % fields.count])
    }

    /// Moves the focus; the field left shows its problem from now on.
    public func focus(on field: FormField) {
        guard field != focus else { return }
        if !revealed.contains(focus) { revealed.insert(focus) }
        focus = field
    }

    public func selectNextOption() { stepOption(by: 1) }
    public func selectPreviousOption() { stepOption(by: -1) }

    public func select(role newRole: Role) {
        guard !isSubmitting, newRole != role, roleOptions.contains(newRole) else { return }
        role = newRole
        fieldChanged(.role, wasValid: true)
    }

    public func select(status newStatus: Status) {
        guard !isSubmitting, newStatus != status, statusOptions.contains(newStatus) else { return }
        status = newStatus
        fieldChanged(.status, wasValid: true)
    }

    private func stepOption(by step: Int) {
        switch focus {
        case .role:
            let index = roleOptions.firstIndex(of: role) ?? 0
            select(role: roleOptions[(index + step + roleOptions.count) % roleOptions.count])
        case .status:
            let index = statusOptions.firstIndex(of: status) ?? 0
            select(status: statusOptions[(index + step + statusOptions.count) % statusOptions.count])
        case .name, .email, .userName:
            break
        }
    }

    private func fieldChanged(_ field: FormField, wasValid: Bool) {
        if serverErrors[field] != nil { serverErrors[field] = nil }
        if formError != nil { formError = nil }
        if wasValid, !revealed.contains(field), clientProblem(field) != nil { revealed.insert(field) }
    }

    private func clientProblem(_ field: FormField) -> String? {
        UserValidation.problems(in: draft).first { $0.field == field.rawValue }?.message
    }

    // MARK: Submitting

    /// Sends the form if it is valid and nothing is in flight. Returns whether a request was
    /// sent: a second submit while one is in flight sends nothing; an invalid form shows every
    /// problem and focuses the first.
    @discardableResult
    public func submit() -> Bool {
        switch submission {
        case .submitting, .saved: return false
        case .editing, .failed: break
        }
        let draft = self.draft
        let problems = UserValidation.problems(in: draft).compactMap { FormField(rawValue: $0.field) }.filter(fields.contains)
        guard problems.isEmpty else {
            revealed.formUnion(problems)
            focus = problems[0]
            return false
        }
        send(draft)
        return true
    }

    /// After a failure that is not about a field: sends the same draft again.
    @discardableResult
    public func retry() -> Bool {
        guard case .failed = submission, let lastDraft else { return false }
        send(lastDraft)
        return true
    }

    private func send(_ draft: UserDraft) {
        if let lastDraft, lastDraft != draft { idempotencyKey = IdempotencyKey.make() }
        lastDraft = draft
        let idempotencyKey = self.idempotencyKey
        submission = .submitting
        if formError != nil { formError = nil }
        if !serverErrors.isEmpty { serverErrors = [:] }
        let mode = self.mode
        let directory = self.directory
        let recorder = self.recorder
        _ = activity.startLoad { [weak self] in
            do {
                let user: User = switch mode {
                case .create:
                    try await recorder.record(.create(draft), landed: { (.user($0), $0.id) }) {
                        try await directory.createUser(draft, idempotencyKey: idempotencyKey)
                    }
                case .edit(let original):
                    try await recorder.record(.update(original, to: draft), landed: { (.user($0), nil) }) {
                        try await directory.updateUser(original, with: draft)
                    }
                }
                self?.saved(user)
            } catch {
                self?.failed(error)
            }
        }
    }

    private func saved(_ user: User) {
        submission = .saved(user)
        onSaved?(user)
    }

    private func failed(_ error: any Error) {
        guard let failure = APIError.shown(for: error) else {
            submission = .editing
            return
        }
        switch failure {
        case .validationFailed, .conflict:
            // About the fields: the person corrects them; each message under its field.
            submission = .editing
            var unplaced: [String] = []
            var placed: [FormField: String] = [:]
            for fieldError in failure.fieldErrors {
                if let field = FormField(rawValue: fieldError.field), fields.contains(field) {
                    if placed[field] == nil { placed[field] = fieldError.message }
                } else {
                    unplaced.append(fieldError.message)
                }
            }
            serverErrors = placed
            if placed.isEmpty || !unplaced.isEmpty {
                formError = unplaced.isEmpty ? failure.errorDescription : unplaced.joined(separator: " ")
            }
            if let first = fields.first(where: { placed[$0] != nil }) { focus = first }
        case .preconditionFailed:
            guard case .edit(let original) = mode else { fallthrough }
            submission = .editing
            let directory = self.directory
            _ = activity.startLoad { [weak self] in
                do {
                    let server = try await directory.user(id: original.id)
                    self?.onConflict?(EditConflict(original: original, server: server))
                } catch {
                    guard let self, let failure = APIError.shown(for: error) else { return }
                    submission = .failed(failure)
                    onFailure?(failure)
                }
            }
        default:
            submission = .failed(failure)
            onFailure?(failure)
        }
    }

    /// After a conflict: the form now edits the server's version. Each field the person
    /// changed keeps what they typed; every other field takes the server's value.
    public func rebase(onto server: User) {
        guard case .edit = mode else { return }
        if name.text == initial.name { name = TextFieldState(server.name) }
        if email.text == initial.email { email = TextFieldState(server.email) }
        if userName.text == initial.userName { userName = TextFieldState(server.scim?.userName ?? "") }
        if role == initial.role { role = server.role }
        if status == initial.status { status = server.status }
        initial = (server.name, server.email, server.scim?.userName ?? "", server.role, server.status)
        mode = .edit(server)
        submission = .editing
    }
}
