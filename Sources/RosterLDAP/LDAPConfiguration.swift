import RosterKit
import Foundation
import Logging

/// How to reach and read an LDAP directory: the server, how to bind, and where people and
/// groups are (`LDAPSchemaSettings`; every default of the vendor can be overridden).
public struct LDAPConfiguration: Sendable {
    /// `ldap://host[:port]` or `ldaps://host[:port]`.
    public var url: URL
    /// The DN (or, for Active Directory, a user principal name) to bind as; empty binds anonymously.
    public var bindDN: String
    /// The bind password, read when first needed (a file, a command, the environment or a prompt).
    public var password: TokenProvider?
    /// StartTLS on `ldap://` (RFC 4513 section 3): on by default; off only for a lab.
    public var startTLS: Bool
    /// A PEM file of the certificate authorities to trust, beside the system's.
    public var caFile: String?
    public var schema: LDAPSchemaSettings
    public var connectTimeout: Duration
    public var logger: Logger

    public init(url: URL, bindDN: String = "", password: TokenProvider? = nil, startTLS: Bool = true, caFile: String? = nil,
                schema: LDAPSchemaSettings = LDAPSchemaSettings(), connectTimeout: Duration = .seconds(5),
                logger: Logger = Logger(label: "roster.ldap")) {
        self.url = url
        self.bindDN = bindDN
        self.password = password
        self.startTLS = startTLS
        self.caFile = caFile
        self.schema = schema
        self.connectTimeout = connectTimeout
        self.logger = logger
    }

    /// Whether `url` names an LDAP server (`--api auto` uses this).
    public static func isLDAPURL(_ url: URL) -> Bool {
        ["ldap", "ldaps"].contains(url.scheme?.lowercased() ?? "")
    }

    var isLDAPS: Bool { url.scheme?.lowercased() == "ldaps" }

    var host: String { url.host ?? url.absoluteString }
}
