/// The orders a user list can be in. Ties are always broken by id on the server.
public enum UserSort: String, Sendable, Hashable, CaseIterable, Codable {
    /// The server's own order: no order asked (LDAP: no sort control; SCIM: no sortBy;
    /// roster-server, which always answers sorted, gives its default, name ↑). An LDAP list
    /// opens in it, as ldapsearch lists a directory: a server-side sort of 100,000 entries costs
    /// the server far more than the first screen (docs/ldap.md, "The order a list opens in").
    case directory = "directory"
    case name = "name"
    case nameDescending = "-name"
    case email = "email"
    case emailDescending = "-email"
    case createdAt = "created_at"
    case createdAtDescending = "-created_at"

    public static let `default`: UserSort = .name

    /// The orders a server sorts by (every case but the directory's own order).
    public static let sorted: [UserSort] = allCases.filter { $0 != .directory }

    /// The next order in the cycle a "sort" key walks through: the sorted orders and, where the
    /// directory has an order of its own worth showing, back to it.
    public func next(includingDirectoryOrder: Bool) -> UserSort {
        let cycle = includingDirectoryOrder ? Self.allCases : Self.sorted
        guard let index = cycle.firstIndex(of: self) else { return cycle[0] }
        return cycle[(index + 1) % cycle.count]
    }

    /// A short label for a header or status line, e.g. "name ↑".
    public var label: String {
        switch self {
        case .directory: "directory order"
        case .name: "name ↑"
        case .nameDescending: "name ↓"
        case .email: "email ↑"
        case .emailDescending: "email ↓"
        case .createdAt: "created ↑"
        case .createdAtDescending: "created ↓"
        }
    }
}
