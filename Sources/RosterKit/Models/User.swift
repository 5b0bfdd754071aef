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
    /// The groups the user is a member of, by name. Read-only: membership is changed through
    /// the group. Absent in older servers' JSON, which decodes as no groups.
    public var groups: [GroupReference]
    /// What a SCIM service sent beyond these fields; nil for the Roster API. Not part of the
    /// Roster wire format.
    public var scim: SCIMDetails? = nil
    /// The profile attributes the directory holds for the user (title, department…), each
    /// read by its dialect; empty for the Roster API, whose wire format has none (the key is
    /// only written when there are some, so the journal keeps them and the wire is unchanged).
    public var attributes: [UserAttribute: String] = [:]

    public init(
        id: String, name: String, email: String, role: Role, status: Status,
        createdAt: Date, updatedAt: Date, groups: [GroupReference] = []
    ) {
        self.id = id
        self.name = name
        self.email = email
        self.role = role
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.groups = groups
    }

    enum CodingKeys: String, CodingKey {
        case id, name, email, role, status, groups, attributes
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Reads each field as the JSON string it is, without a nested decoder per role, status and
    /// timestamp: a page decodes 50 users on every list call, and those nested decoders were a
    /// third of the client's time on a page. Timestamps are read as `WireFormat` reads any `Date`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        email = try container.decode(String.self, forKey: .email)
        role = Role(rawValue: try container.decode(String.self, forKey: .role))
        status = Status(rawValue: try container.decode(String.self, forKey: .status))
        createdAt = try Self.timestamp(in: container, forKey: .createdAt)
        updatedAt = try Self.timestamp(in: container, forKey: .updatedAt)
        groups = try container.decodeIfPresent([GroupReference].self, forKey: .groups) ?? []
        attributes = [UserAttribute: String](byName: try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(email, forKey: .email)
        try container.encode(role, forKey: .role)
        try container.encode(status, forKey: .status)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(groups, forKey: .groups)
        if !attributes.isEmpty { try container.encode(attributes.byName, forKey: .attributes) }
    }

    private static func timestamp(in container: KeyedDecodingContainer<CodingKeys>, forKey key: CodingKeys) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = ISO8601Timestamp.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "Expected an ISO 8601 timestamp, found \"\(text.prefix(40))\"")
        }
        return date
    }

    /// The draft that would save this user unchanged: the starting point of an edit form.
    public var draft: UserDraft {
        UserDraft(name: name, email: email, role: role, status: status, userName: scim?.userName)
    }
}
