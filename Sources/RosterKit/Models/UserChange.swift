import Foundation

/// One change to a user, as the server's audit log records it (`GET /api/v1/audit`): when, by
/// which token (and client), what, and the fields from what to what.
public struct UserChange: Decodable, Sendable, Equatable {
    public var at: Date
    /// The token's name (`bootstrap` for the server's --token).
    public var token: String
    /// The client's address and User-Agent, e.g. "10.0.0.7 Roster/0.9".
    public var client: String
    /// "create", "update" or "delete".
    public var action: String
    public var changes: [ChangedField]

    public init(at: Date, token: String, client: String, action: String, changes: [ChangedField]) {
        self.at = at
        self.token = token
        self.client = client
        self.action = action
        self.changes = changes
    }
}

/// A field's value before and after a change; nil where there was none.
public struct ChangedField: Decodable, Sendable, Equatable {
    public var field: String
    public var before: String?
    public var after: String?

    public init(field: String, before: String?, after: String?) {
        self.field = field
        self.before = before
        self.after = after
    }
}

/// A page of the audit log as the server sends it.
struct AuditPage: Decodable, Sendable {
    var items: [UserChange]
}
