/// The orders the list endpoint accepts. Ties are always broken by id on the server.
public enum UserSort: String, Sendable, Hashable, CaseIterable, Codable {
    case name = "name"
    case nameDescending = "-name"
    case email = "email"
    case emailDescending = "-email"
    case createdAt = "created_at"
    case createdAtDescending = "-created_at"

    public static let `default`: UserSort = .name

    /// The next order in the cycle a "sort" key walks through.
    public var next: UserSort {
        let all = Self.allCases
        let index = all.firstIndex(of: self)!
        return all[(index + 1) % all.count]
    }

    /// A short label for a header or status line, e.g. "name ↑".
    public var label: String {
        switch self {
        case .name: "name ↑"
        case .nameDescending: "name ↓"
        case .email: "email ↑"
        case .emailDescending: "email ↓"
        case .createdAt: "created ↑"
        case .createdAtDescending: "created ↓"
        }
    }
}
