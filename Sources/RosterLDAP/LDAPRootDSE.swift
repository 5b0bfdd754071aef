import RosterKit
/// What a server says of itself in its root DSE (RFC 4512 section 5.1): who made it, where its
/// entries are and which controls it takes.
public struct LDAPRootDSE: Sendable, Equatable {
    public enum Vendor: String, Sendable {
        case activeDirectory = "Active Directory"
        case openLDAP = "OpenLDAP"
        case other = "LDAP"
    }

    public var vendor: Vendor
    public var namingContexts: [String]
    /// Active Directory's domain; nil elsewhere.
    public var defaultNamingContext: String?
    public var supportedControls: Set<String>
    public var supportedExtensions: Set<String>

    /// The attributes to ask for: `+` brings OpenLDAP's operational ones (its structural class).
    static let attributes = ["namingContexts", "defaultNamingContext", "supportedControl", "supportedExtension",
                             "supportedCapabilities", "vendorName", "structuralObjectClass", "objectClass"]

    static let pagedResults = "1.2.840.113556.1.4.319"
    static let serverSort = "1.2.840.113556.1.4.473"
    static let passwordModify = "1.3.6.1.4.1.4203.1.11.1"
    /// LDAP_CAP_ACTIVE_DIRECTORY_OID: Active Directory (and Samba's AD DC) names it.
    static let activeDirectoryCapability = "1.2.840.113556.1.4.800"

    init(_ entry: LDAPEntry) {
        namingContexts = entry.values("namingContexts")
        defaultNamingContext = entry.first("defaultNamingContext")
        supportedControls = Set(entry.values("supportedControl"))
        supportedExtensions = Set(entry.values("supportedExtension"))
        if entry.values("supportedCapabilities").contains(Self.activeDirectoryCapability) {
            vendor = .activeDirectory
        } else if entry.first("structuralObjectClass") == "OpenLDAProotDSE" || entry.values("objectClass").contains("OpenLDAProotDSE")
            || entry.first("vendorName")?.contains("OpenLDAP") == true {
            vendor = .openLDAP
        } else {
            vendor = .other
        }
    }

    public init(vendor: Vendor, namingContexts: [String], defaultNamingContext: String? = nil,
                supportedControls: Set<String> = [], supportedExtensions: Set<String> = []) {
        self.vendor = vendor
        self.namingContexts = namingContexts
        self.defaultNamingContext = defaultNamingContext
        self.supportedControls = supportedControls
        self.supportedExtensions = supportedExtensions
    }

    public var offersPaging: Bool { supportedControls.contains(Self.pagedResults) }
    public var offersSort: Bool { supportedControls.contains(Self.serverSort) }
    public var offersPasswordModify: Bool { supportedExtensions.contains(Self.passwordModify) }

    /// Where entries are unless the settings say otherwise.
    public var defaultBase: String? {
        defaultNamingContext ?? namingContexts.first
    }
}
