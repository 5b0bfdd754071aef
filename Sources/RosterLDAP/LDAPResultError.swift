import RosterKit
/// A failed LDAP operation as libldap reported it: the result code (RFC 4511 section 4.1.9,
/// or one of libldap's negative client codes) and the server's diagnostic message.
public struct LDAPResultError: Error, Sendable, Equatable {
    public var code: Int32
    public var diagnostic: String
    /// What the operation was, for the log ("search", "modify"...).
    public var operation: String

    public init(code: Int32, diagnostic: String = "", operation: String) {
        self.code = code
        self.diagnostic = diagnostic
        self.operation = operation
    }

    // The codes Roster treats apart (RFC 4511 and ldap.h).
    public static let success: Int32 = 0
    public static let sizeLimitExceeded: Int32 = 4
    public static let strongerAuthRequired: Int32 = 8
    public static let confidentialityRequired: Int32 = 13
    public static let noSuchAttribute: Int32 = 16
    public static let constraintViolation: Int32 = 19
    public static let attributeOrValueExists: Int32 = 20
    public static let invalidSyntax: Int32 = 21
    public static let noSuchObject: Int32 = 32
    public static let invalidDNSyntax: Int32 = 34
    public static let invalidCredentials: Int32 = 49
    public static let insufficientAccess: Int32 = 50
    public static let busy: Int32 = 51
    public static let unavailable: Int32 = 52
    public static let unwillingToPerform: Int32 = 53
    public static let namingViolation: Int32 = 64
    public static let objectClassViolation: Int32 = 65
    public static let notAllowedOnNonLeaf: Int32 = 66
    public static let alreadyExists: Int32 = 68
    public static let serverDown: Int32 = -1
    public static let localError: Int32 = -2
    public static let timeout: Int32 = -5
    public static let connectError: Int32 = -11

    /// The connection is gone or never came: a new one is needed.
    public var connectionIsGone: Bool {
        code == Self.serverDown || code == Self.connectError
    }

    /// OpenLDAP's sort overlay (sssvlv) holds a few sorted searches per connection and, at
    /// 100,000 entries, was seen to refuse the release of an unfinished one, so the slots fill
    /// and every sorted search says "Other sort requests already in progress". Closing the
    /// connection frees them all.
    public var sortSlotsTaken: Bool {
        code == Self.busy && diagnostic.contains("sort requests already in progress")
    }
}
