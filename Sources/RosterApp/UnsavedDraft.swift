import RosterKit

/// What a changed form held when the app had to stop without asking (SIGTERM, SIGHUP): saved
/// as JSON in the state directory and offered again at the next start.
public struct UnsavedDraft: Codable, Sendable, Equatable {
    /// The user being edited as the form last read them; nil for a new user.
    public var original: User?
    public var name: String
    public var email: String
    public var userName: String
    public var role: Role
    public var status: Status
    /// The connection the form was open on: offered again only there, where its user is (nil in
    /// a draft kept before connections were named: offered anywhere, as then).
    public var connection: String?

    public init(original: User?, name: String, email: String, userName: String = "", role: Role, status: Status) {
        self.original = original
        self.name = name
        self.email = email
        self.userName = userName
        self.role = role
        self.status = status
    }

    /// Whether to offer it on `connection`: the one it was kept on, or any when it does not say.
    public func isOffered(on connection: String) -> Bool {
        self.connection == nil || self.connection == connection
    }

    /// Whose draft it is, for the question at the next start.
    public var label: String {
        if let original { return "your edit of \(original.name)" }
        let who = name.isEmpty ? email : name
        return who.isEmpty ? "a new user" : "the new user \(who)"
    }
}
