/// A group as a user carries it (`User.groups`): read-only, changed through the group.
public struct GroupReference: Codable, Sendable, Equatable, Hashable, Identifiable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
