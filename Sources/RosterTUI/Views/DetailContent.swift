/// The selected user's record as the detail pane draws it.
public struct DetailContent: Equatable, Sendable {
    /// A labelled line below the standard ones: a Roster user's groups, or a field a SCIM
    /// service sent beyond Roster's own.
    public struct Field: Equatable, Sendable {
        public var label: String
        public var value: String
        public var isDim: Bool

        public init(label: String, value: String, isDim: Bool = false) {
            self.label = label
            self.value = value
            self.isDim = isDim
        }
    }

    /// Name, email, role and status, as the list shows them.
    public var user: UserRowContent
    public var id: String
    /// "2025-11-21 09:30 UTC".
    public var created: String
    public var updated: String
    public var fields: [Field]
    /// True while the full record is being fetched (the row's data is shown meanwhile).
    public var isRefreshing: Bool
    /// Set when fetching the full record failed.
    public var problem: String?
    /// Whether the directory knows roles: the Role line is left out when it does not.
    public var showsRole = true

    public init(user: UserRowContent, id: String, created: String, updated: String, fields: [Field] = [],
                isRefreshing: Bool = false, problem: String? = nil) {
        self.user = user
        self.id = id
        self.created = created
        self.updated = updated
        self.fields = fields
        self.isRefreshing = isRefreshing
        self.problem = problem
    }
}
