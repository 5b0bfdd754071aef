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

    /// A group as its line draws it.
    public struct GroupRow: Equatable, Sendable {
        public var name: String
        public var memberCount: Int
        public init(name: String, memberCount: Int) {
            self.name = name
            self.memberCount = memberCount
        }
    }

    /// A member as their line draws them.
    public struct MemberRow: Equatable, Sendable {
        public var name: String
        public var email: String
        public init(name: String, email: String) {
            self.name = name
            self.email = email
        }
    }

    public var groups: Pane<GroupRow>
    public var members: Pane<MemberRow>
    /// Which pane the keys move in.
    public var membersFocused = false
    /// Whether the view has the keyboard (nothing stacked on it).
    public var focused = true

    public init(groups: Pane<GroupRow>, members: Pane<MemberRow>) {
        self.groups = groups
        self.members = members
    }
}
