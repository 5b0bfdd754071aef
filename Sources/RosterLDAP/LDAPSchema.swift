import RosterKit
/// The layout Roster reads and writes on one directory: the vendor's defaults
/// (`LDAPRootDSE.Vendor`) with the settings' overrides applied.
struct LDAPSchema: Sendable {
    enum StatusMechanism: Sendable {
        /// OpenLDAP's ppolicy overlay: `pwdAccountLockedTime` of 000001010000Z locks for good
        /// (suspended); another time is a lockout after failed logins.
        case passwordPolicy
        /// Active Directory: `userAccountControl` bit 2 (ACCOUNTDISABLE); `lockoutTime` > 0.
        case userAccountControl
    }

    var vendor: LDAPRootDSE.Vendor
    var peopleBase: String
    var groupsBase: String
    /// Where new people and groups go: the settings' bases, else the vendor's usual folder
    /// (AD's CN=Users; ou=people and ou=groups where the tree has them), else the base.
    var newPeopleParent: String
    var newGroupsParent: String
    var personClass: String
    var newPersonClasses: [String]
    var groupClass: String
    var nameAttribute: String
    var loginAttribute: String
    var emailAttribute: String
    var rdnAttribute: String
    /// The LDAP attribute behind each profile attribute.
    var profileAttributes: [UserAttribute: String]
    var status: StatusMechanism
    /// The ordering rule server-side sort needs for names (OpenLDAP's `displayName` and `cn`
    /// have none of their own); nil where the server orders them itself.
    var orderingRule: String?

    static let permanentLock = "000001010000Z"
    static let accountDisable = 2

    init(vendor: LDAPRootDSE.Vendor, base: String, settings: LDAPSchemaSettings) {
        self.vendor = vendor
        let isAD = vendor == .activeDirectory
        peopleBase = settings.peopleBase ?? base
        groupsBase = settings.groupsBase ?? base
        newPeopleParent = peopleBase
        newGroupsParent = groupsBase
        personClass = settings.personClass ?? (isAD ? "user" : "inetOrgPerson")
        newPersonClasses = settings.newPersonClasses ?? (isAD ? ["top", "person", "organizationalPerson", "user"] : ["inetOrgPerson"])
        groupClass = settings.groupClass ?? (isAD ? "group" : "groupOfNames")
        nameAttribute = settings.nameAttribute ?? "displayName"
        loginAttribute = settings.loginAttribute ?? (isAD ? "sAMAccountName" : "uid")
        emailAttribute = settings.emailAttribute ?? "mail"
        rdnAttribute = settings.rdnAttribute ?? (isAD ? "cn" : "uid")
        // inetOrgPerson has no `department`: its `departmentNumber` is the one (RFC 2798).
        profileAttributes = [
            .title: settings.titleAttribute ?? "title",
            .department: settings.departmentAttribute ?? (isAD ? "department" : "departmentNumber"),
            .employeeNumber: settings.employeeNumberAttribute ?? "employeeNumber",
        ]
        status = isAD ? .userAccountControl : .passwordPolicy
        orderingRule = isAD ? nil : "caseIgnoreOrderingMatch"
    }

    /// Where the vendor usually keeps new people and groups, in the order to look for them.
    var usualPeopleParents: [String] {
        vendor == .activeDirectory ? ["CN=Users,\(peopleBase)"] : ["ou=people,\(peopleBase)", "ou=users,\(peopleBase)"]
    }

    var usualGroupsParents: [String] {
        vendor == .activeDirectory ? ["CN=Users,\(groupsBase)"] : ["ou=groups,\(groupsBase)"]
    }

    /// Which entries are people: AD's computers are `user` objects too, so `objectCategory`
    /// narrows them there.
    var personFilter: String {
        vendor == .activeDirectory
            ? "(&(objectCategory=person)(objectClass=\(personClass)))"
            : LDAPFilter.equals("objectClass", personClass)
    }

    var groupFilter: String {
        LDAPFilter.equals("objectClass", groupClass)
    }

    /// Everything a person's row and detail pane read.
    var personAttributes: [String] {
        var names = ["objectClass", nameAttribute, "cn", "givenName", "sn", loginAttribute, emailAttribute,
                     "telephoneNumber", "manager", "memberOf"]
        names += UserAttribute.allCases.compactMap { profileAttributes[$0] }
        switch status {
        case .passwordPolicy:
            names += ["pwdAccountLockedTime", "createTimestamp", "modifyTimestamp"]
        case .userAccountControl:
            names += ["userPrincipalName", "userAccountControl", "lockoutTime", "whenCreated", "whenChanged"]
        }
        return names
    }

    /// AD is asked for the first range of `member` itself, as its own tools do: Samba sends
    /// every value of a plain `member` however many, Windows only the first 1,500.
    var groupAttributes: [String] {
        ["cn", vendor == .activeDirectory ? "member;range=0-1499" : "member", vendor == .activeDirectory ? "whenCreated" : "createTimestamp",
         vendor == .activeDirectory ? "whenChanged" : "modifyTimestamp"]
    }

    /// The sort key for `sort` in RFC 2891's string form, or nil for the server's own order.
    func sortKey(_ sort: UserSort) -> String? {
        guard sort != .directory else { return nil }
        let (attribute, descending): (String, Bool) = switch sort {
        case .directory, .name: (nameAttribute, false)
        case .nameDescending: (nameAttribute, true)
        case .email: (emailAttribute, false)
        case .emailDescending: (emailAttribute, true)
        case .createdAt: (vendor == .activeDirectory ? "whenCreated" : "createTimestamp", false)
        case .createdAtDescending: (vendor == .activeDirectory ? "whenCreated" : "createTimestamp", true)
        }
        let needsRule = orderingRule != nil && (sort == .name || sort == .nameDescending || sort == .email || sort == .emailDescending)
        return (descending ? "-" : "") + attribute + (needsRule ? ":\(orderingRule!)" : "")
    }

    func groupSortKey(_ sort: GroupSort) -> String {
        let rule = orderingRule.map { ":\($0)" } ?? ""
        switch sort {
        case .name: return "cn" + rule
        case .nameDescending: return "-cn" + rule
        case .createdAt: return vendor == .activeDirectory ? "whenCreated" : "createTimestamp"
        case .createdAtDescending: return vendor == .activeDirectory ? "-whenCreated" : "-createTimestamp"
        }
    }
}
