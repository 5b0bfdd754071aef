import RosterKit

/// What the groups view draws: the groups on the left, the selected group's members on the
/// right, each a pane of visible rows with its position and a message when it has no rows.
public struct GroupsContent: Equatable, Sendable {
    public struct Pane<Row: Equatable & Sendable>: Equatable, Sendable {
        public var title: String
        public var rows: [Row]
        /// The index in the whole list of `rows[0]`.
        public var firstIndex = 0
        public var selectedIndex: Int?
        /// nil until the first page has answered.
        public var total: Int?
        public var totalIsLowerBound = false
        /// Shown centred when there are no rows (loading, none, failed).
        public var message: String?
        /// A later page that failed, shown below the rows.
        public var problem: String?

        public init(title: String, rows: [Row] = [], message: String? = nil) {
            self.title = title
            self.rows = rows
            self.message = message
        }
    }

    public var groups: Pane<Group>
    public var members: Pane<User>
    /// Which pane the keys move in.
    public var membersFocused = false
    /// Whether the view has the keyboard (nothing stacked on it).
    public var focused = true

    public init(groups: Pane<Group>, members: Pane<User>) {
        self.groups = groups
        self.members = members
    }
}
