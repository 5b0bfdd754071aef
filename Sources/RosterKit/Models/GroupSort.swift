/// The orders the group list accepts. Ties are always broken by id on the server.
public enum GroupSort: String, Sendable, Hashable, CaseIterable, Codable {
    case name = "name"
    case nameDescending = "-name"
    case createdAt = "created_at"
    case createdAtDescending = "-created_at"

    public static let `default`: GroupSort = .name
}
