/// What a column of an import file means: a field of the user, or a part of one (a first
/// name, a "Block sign in" flag), as the file's templates name them.
public enum ImportField: String, CaseIterable, Sendable, Codable, Hashable {
    case name
    /// Joined with `lastName` into the name when the file has no name column.
    case firstName = "first name"
    case lastName = "last name"
    case email
    /// A login other than the email (Okta's `login`, SCIM's `userName`): matched on when the
    /// row has no email match, and sent as the SCIM `userName` of a new user.
    case login
    case role
    /// `active`, `suspended` or `invited` as written, and the yes/no words of the templates.
    case status
    /// True means enabled: `accountEnabled`, SCIM's `active`.
    case enabled
    /// Entra ID's "Block sign in (Yes/No)": yes means suspended, the inverse of `enabled`.
    case blockSignIn = "block sign in"
    /// Group names separated by `;`: the user is added to each.
    case groups

    /// As the preview names it.
    public var label: String {
        switch self {
        case .name: "name"
        case .firstName: "first name"
        case .lastName: "last name"
        case .email: "email"
        case .login: "login"
        case .role: "role"
        case .status: "status"
        case .enabled: "enabled (yes/no)"
        case .blockSignIn: "block sign in (yes/no)"
        case .groups: "groups (a;b)"
        }
    }
}
