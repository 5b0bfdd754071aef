/// What a person submits to create or update a user. Role and status may be left out on
/// create (the server picks `member` and `active`) and on update (unchanged).
public struct UserDraft: Codable, Sendable, Equatable, Hashable {
    public var name: String
    public var email: String
    public var role: Role?
    public var status: Status?
    /// SCIM's `userName`, for services that require one; nil means "the email". Never sent
    /// to the Roster API, which has no such field.
    public var userName: String? = nil
    /// Only the profile attributes to set: one absent is left as it is on update; an empty
    /// value clears it where the dialect can. Never sent to the Roster API (its traits name
    /// none, and its wire format has no such field).
    public var attributes: [UserAttribute: String] = [:]

    public init(name: String, email: String, role: Role? = nil, status: Status? = nil, userName: String? = nil,
                attributes: [UserAttribute: String] = [:]) {
        self.name = name
        self.email = email
        self.role = role
        self.status = status
        self.userName = userName
        self.attributes = attributes
    }

    enum CodingKeys: String, CodingKey {
        case name, email, role, status
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(email, forKey: .email)
        try container.encodeIfPresent(role, forKey: .role)
        try container.encodeIfPresent(status, forKey: .status)
    }
}
