import RosterKit

/// What a column of an import file means: a field of the user, or a part of one (a first
/// name, a "Block sign in" flag), as the file's templates name them; or a profile attribute
/// (`UserAttribute`), placed only where the directory's traits name it.
public enum ImportField: Sendable, Hashable, CaseIterable, RawRepresentable, Codable {
    case name
    /// Joined with `lastName` into the name when the file has no name column.
    case firstName
    case lastName
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
    case blockSignIn
    /// Group names separated by `;`: the user is added to each.
    case groups
    /// Title, department, employee number: set only on directories that have them.
    case attribute(UserAttribute)

    public static let allCases: [ImportField] =
        [.name, .firstName, .lastName, .email, .login, .role, .status, .enabled, .blockSignIn, .groups]
            + UserAttribute.allCases.map(ImportField.attribute)

    /// As the remembered mappings store it.
    public var rawValue: String {
        switch self {
        case .name: "name"
        case .firstName: "first name"
        case .lastName: "last name"
        case .email: "email"
        case .login: "login"
        case .role: "role"
        case .status: "status"
        case .enabled: "enabled"
        case .blockSignIn: "block sign in"
        case .groups: "groups"
        case .attribute(let attribute): attribute.rawValue
        }
    }

    public init?(rawValue: String) {
        guard let field = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = field
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let field = ImportField(rawValue: text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "No field \(text)"))
        }
        self = field
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The profile attribute this column fills, if it is one.
    public var attribute: UserAttribute? {
        if case .attribute(let attribute) = self { attribute } else { nil }
    }

    /// As the preview names it.
    public var label: String {
        switch self {
        case .enabled: "enabled (yes/no)"
        case .blockSignIn: "block sign in (yes/no)"
        case .groups: "groups (a;b)"
        case .attribute(let attribute): attribute.label
        default: rawValue
        }
    }
}
