import RosterKit

/// A field of the user form. The raw value is the field's wire name, so a server's field
/// error lands on the field it names.
public enum FormField: String, CaseIterable, Sendable {
    case name, email, userName, role, status

    public var label: String {
        switch self {
        case .name: "Name"
        case .email: "Email"
        case .userName: "Username"
        case .role: "Role"
        case .status: "Status"
        }
    }

    /// Text fields take line editing; the others are pickers.
    public var isText: Bool {
        self == .name || self == .email || self == .userName
    }

    /// The fields a directory asks for: SCIM and LDAP key users on a login (`userName`), and only a
    /// directory that knows roles gets a role picker.
    public static func fields(for traits: DirectoryTraits) -> [FormField] {
        [.name, .email] + (traits.dialect != .roster ? [.userName] : []) + (traits.hasRoles ? [.role] : []) + [.status]
    }
}

/// Whether the form makes a new user or changes one.
public enum FormMode: Sendable, Equatable {
    case create
    case edit(User)
}

/// Where a submit stands.
public enum SubmissionState: Sendable, Equatable {
    case editing
    /// Sent; the form refuses edits and a second submit until the answer.
    case submitting
    /// Failed for a reason that is not about a field; `retry()` sends the same draft again.
    case failed(APIError)
    case saved(User)
}
