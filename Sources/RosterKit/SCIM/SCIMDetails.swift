/// What a SCIM user holds beyond Roster's own fields, for the detail pane and the form.
/// Nil on users of the Roster API. The profile attributes (title, department, employee
/// number) are not here but in `User.attributes`, which every dialect fills.
public struct SCIMDetails: Sendable, Equatable, Hashable {
    public var userName: String
    public var displayName: String?
    public var formattedName: String?
    public var givenName: String?
    public var familyName: String?
    /// Every email, the primary first.
    public var emails: [String]
    public var phoneNumbers: [String]
    public var roles: [String]
    /// Display names of the groups the user is in (read-only in SCIM).
    public var groups: [String]
    /// The manager's display name, else their id.
    public var manager: String?
    /// `meta.version`: the ETag to send as `If-Match`.
    public var version: String?

    public init(
        userName: String, displayName: String? = nil, formattedName: String? = nil, givenName: String? = nil,
        familyName: String? = nil, emails: [String] = [], phoneNumbers: [String] = [],
        roles: [String] = [], groups: [String] = [], manager: String? = nil, version: String? = nil
    ) {
        self.userName = userName
        self.displayName = displayName
        self.formattedName = formattedName
        self.givenName = givenName
        self.familyName = familyName
        self.emails = emails
        self.phoneNumbers = phoneNumbers
        self.roles = roles
        self.groups = groups
        self.manager = manager
        self.version = version
    }

    /// Label (at most 8 columns: the detail pane's label column, and a space) and value of every field the
    /// server sent, in the order the detail pane shows them.
    public var fields: [(label: String, value: String)] {
        var result: [(String, String)] = [("Username", userName)]
        if let displayName { result.append(("Display", displayName)) }
        if let formattedName { result.append(("Name", formattedName)) }
        if let givenName { result.append(("Given", givenName)) }
        if let familyName { result.append(("Family", familyName)) }
        if emails.count > 1 { result.append(("Emails", emails.joined(separator: ", "))) }
        if !phoneNumbers.isEmpty { result.append(("Phone", phoneNumbers.joined(separator: ", "))) }
        if !roles.isEmpty { result.append(("Roles", roles.joined(separator: ", "))) }
        if !groups.isEmpty { result.append(("Groups", groups.joined(separator: ", "))) }
        if let manager { result.append(("Manager", manager)) }
        if let version { result.append(("Version", version)) }
        return result
    }
}
