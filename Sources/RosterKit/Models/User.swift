import Foundation

/// A user of the directory, as the wire contract describes it.
public struct User: Codable, Sendable, Equatable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var email: String
    public var role: Role
    public var status: Status
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, name: String, email: String, role: Role, status: Status,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.email = email
        self.role = role
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, email, role, status
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The draft that would save this user unchanged: the starting point of an edit form.
    public var draft: UserDraft {
        UserDraft(name: name, email: email, role: role, status: status)
    }
}
