/// `POST /api/v1/groups/{id}/members`: users to add to and remove from a group in one atomic
/// call. Ids already in (for add) or already out (for remove) change nothing; an id no user
/// has fails the whole call.
public struct MembershipChange: Codable, Sendable, Equatable, Hashable {
    /// The most ids one call may carry, add and remove together.
    public static let maximumIDs = 1000

    public var add: [String]
    public var remove: [String]

    public init(add: [String] = [], remove: [String] = []) {
        self.add = add
        self.remove = remove
    }
}
