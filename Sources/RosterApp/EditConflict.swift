import RosterKit

/// A save refused with 412: the user changed on the server since the form was opened. Holds
/// the server's version and what differs from the one the form started from.
public struct EditConflict: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        public var field: FormField
        public var before: String
        public var after: String
    }

    public let original: User
    public let server: User

    public init(original: User, server: User) {
        self.original = original
        self.server = server
    }

    /// The fields someone else changed, with their old and new values.
    public var changes: [Change] {
        var result: [Change] = []
        if original.name != server.name { result.append(Change(field: .name, before: original.name, after: server.name)) }
        if original.email != server.email { result.append(Change(field: .email, before: original.email, after: server.email)) }
        if original.role != server.role { result.append(Change(field: .role, before: original.role.rawValue, after: server.role.rawValue)) }
        if original.status != server.status {
            result.append(Change(field: .status, before: original.status.rawValue, after: server.status.rawValue))
        }
        return result
    }

    /// "Name: Ana → Ana S.; Status: active → suspended", or what else changed.
    public var summary: String {
        let listed = changes.map { "\($0.field.label): \($0.before) → \($0.after)" }
        return listed.isEmpty ? "Attributes Roster does not show changed." : listed.joined(separator: "; ")
    }
}
