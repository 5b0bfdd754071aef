import RosterKit

/// One person of one side of a review, with only what the review needs: the folded key, the
/// id (to act on the account), the status and the compared fields. The rest of a `User`
/// (timestamps, groups, SCIM details) is dropped as each page is read. A side keeps its people
/// packed in `ReviewPeople`, which hands them out as this value: a finding holds two.
public struct ReviewPerson: Sendable, Equatable {
    /// The key as compared (`ReviewFold.key`); empty when the person has none.
    public var key: String
    public var id: String
    public var name: String
    public var email: String
    /// Nil where the directory has no roles (LDAP by default), so no role is compared there.
    public var role: Role?
    public var status: Status

    public init(key: String, id: String, name: String, email: String, role: Role?, status: Status) {
        self.key = key
        self.id = id
        self.name = name
        self.email = email
        self.role = role
        self.status = status
    }

    public init(_ user: User, key: ReviewKey, hasRoles: Bool) {
        self.init(key: key.folded(user), id: user.id, name: user.name, email: user.email,
                  role: hasRoles ? user.role : nil, status: user.status)
    }
}
