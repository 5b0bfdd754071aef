import Foundation

/// A group of users, as the wire contract describes it. Membership is changed through the
/// group's own calls; `memberCount` is the server's count of its members.
public struct Group: Codable, Sendable, Equatable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var memberCount: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, name: String, memberCount: Int, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.memberCount = memberCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case memberCount = "member_count"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// What a user shows of this group.
    public var reference: GroupReference {
        GroupReference(id: id, name: name)
    }
}
