/// What the app may offer on this directory: the same views for every server, with what a
/// server cannot do said rather than pretended (docs/design.md, "Two dialects, one seam").
public struct DirectoryTraits: Sendable, Equatable {
    public var dialect: Dialect
    public var canSort: Bool
    public var hasRoles: Bool
    /// The statuses a user can have here (SCIM's `active` has no "invited").
    public var statuses: [Status]
    /// What a search matches here, when it is less than the usual substring search (a SCIM
    /// service that only takes `sw` or `eq` filters, or none); nil for the usual.
    public var searchLimitation: String?
    /// Whether users can be filtered by group, and groups looked up by name
    /// (`Directory.groups(named:limit:)`).
    public var hasGroups: Bool
    /// Whether the directory keeps a history of each user's changes (`Directory.history(ofUser:)`):
    /// a roster-server with an audit log does; SCIM and LDAP directories do not.
    public var hasHistory: Bool
    /// Whether a user's password can be set here (`Directory.resetPassword`).
    public var canResetPassword: Bool
    /// Whether a reset can also say "must change at next logon" (AD's `pwdLastSet: 0`).
    public var canRequirePasswordChange: Bool
    /// Whether an account locked by failed logins can be unlocked (`Directory.unlock`).
    public var canUnlock: Bool
    /// The profile attributes users have here, which an import can set and the detail pane
    /// shows: SCIM's `title` and enterprise `department`/`employeeNumber` where the service's
    /// schemas declare them, LDAP's person attributes; none on the Roster API.
    public var attributes: [UserAttribute]

    public init(dialect: Dialect, canSort: Bool = true, hasRoles: Bool = true, statuses: [Status] = Status.known,
                searchLimitation: String? = nil, hasGroups: Bool = false, hasHistory: Bool = false, canResetPassword: Bool = false,
                canRequirePasswordChange: Bool = false, canUnlock: Bool = false, attributes: [UserAttribute] = []) {
        self.dialect = dialect
        self.canSort = canSort
        self.hasRoles = hasRoles
        self.statuses = statuses
        self.searchLimitation = searchLimitation
        self.hasGroups = hasGroups
        self.hasHistory = hasHistory
        self.canResetPassword = canResetPassword
        self.canRequirePasswordChange = canRequirePasswordChange
        self.canUnlock = canUnlock
        self.attributes = attributes
    }

    public static let rosterAPI = DirectoryTraits(dialect: .roster)
}
