import RosterKit

/// What an access review matches people by: the attribute both directories hold for the same
/// person. Email by default (the one every dialect maps); the login (SCIM `userName`, LDAP
/// `uid` or `sAMAccountName`) or the employee number where the email is not shared.
public enum ReviewKey: String, Sendable, CaseIterable {
    case email
    case login
    case employeeNumber = "employee-number"

    /// The key's value for `user` as the directory gave it; empty when the user has none.
    public func value(of user: User) -> String {
        switch self {
        case .email: user.email
        case .login: user.scim?.userName ?? ""
        case .employeeNumber: user.attributes[.employeeNumber] ?? ""
        }
    }

    /// The key as the matching compares it (`ReviewFold.key`).
    public func folded(_ user: User) -> String {
        ReviewFold.key(value(of: user))
    }
}
