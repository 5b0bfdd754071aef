import RosterKit
/// What the settings may say of an LDAP directory's layout; every field left nil takes the
/// vendor's default (`LDAPSchema`).
public struct LDAPSchemaSettings: Sendable, Equatable, Codable {
    /// Where people are searched (subtree) and created; default: the server's naming context.
    public var peopleBase: String?
    /// Where groups are searched (subtree) and created; default: the server's naming context.
    public var groupsBase: String?
    /// The object class that makes an entry a person (`inetOrgPerson`, AD's `user`).
    public var personClass: String?
    /// The object classes a new person gets.
    public var newPersonClasses: [String]?
    /// The object class that makes an entry a group (`groupOfNames`, AD's `group`).
    public var groupClass: String?
    /// The attribute behind each field: name, login, email.
    public var nameAttribute: String?
    public var loginAttribute: String?
    public var emailAttribute: String?
    /// The attribute of a new entry's RDN (`uid`, AD's `cn`).
    public var rdnAttribute: String?
    /// The attribute behind each profile attribute: title (`title`), department
    /// (inetOrgPerson's `departmentNumber`, AD's `department`), employee number (`employeeNumber`).
    public var titleAttribute: String?
    public var departmentAttribute: String?
    public var employeeNumberAttribute: String?

    public init(peopleBase: String? = nil, groupsBase: String? = nil, personClass: String? = nil, newPersonClasses: [String]? = nil,
                groupClass: String? = nil, nameAttribute: String? = nil, loginAttribute: String? = nil,
                emailAttribute: String? = nil, rdnAttribute: String? = nil, titleAttribute: String? = nil,
                departmentAttribute: String? = nil, employeeNumberAttribute: String? = nil) {
        self.peopleBase = peopleBase
        self.groupsBase = groupsBase
        self.personClass = personClass
        self.newPersonClasses = newPersonClasses
        self.groupClass = groupClass
        self.nameAttribute = nameAttribute
        self.loginAttribute = loginAttribute
        self.emailAttribute = emailAttribute
        self.rdnAttribute = rdnAttribute
        self.titleAttribute = titleAttribute
        self.departmentAttribute = departmentAttribute
        self.employeeNumberAttribute = employeeNumberAttribute
    }
}
