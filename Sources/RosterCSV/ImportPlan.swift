import RosterKit

/// One data record of an import file, checked: what it says of the user, or why it cannot be
/// used. A field the file does not map, or leaves empty, is nil: an update leaves it as it is.
public struct ImportRow: Sendable, Equatable {
    /// The file's line where the record starts (1 is the header), as an editor numbers it.
    public var line: Int
    /// The name (first and last joined when the file has them apart); nil when the file has
    /// no name: such a row can update a user but not create one.
    public var name: String?
    public var email: String
    public var login: String?
    public var role: Role?
    public var status: Status?
    /// The groups the user is to be in; nil when the file has no groups column.
    public var groups: [String]?
    /// The profile attributes the row fills (mapped and not empty): an update sets only these.
    public var attributes: [UserAttribute: String] = [:]
    /// Why the row cannot be imported; nil for a good one.
    public var problem: String?

    public init(line: Int, name: String? = nil, email: String, login: String? = nil, role: Role? = nil, status: Status? = nil,
                groups: [String]? = nil, problem: String? = nil) {
        self.line = line
        self.name = name
        self.email = email
        self.login = login
        self.role = role
        self.status = status
        self.groups = groups
        self.problem = problem
    }

    public var isValid: Bool { problem == nil }

    /// What a create sends; nil for a bad row, or one without a name or an email (matched by
    /// its login, it can update a user but not create one).
    public var draft: UserDraft? {
        guard isValid, let name, !name.isEmpty, !email.isEmpty else { return nil }
        return UserDraft(name: name, email: email, role: role, status: status, userName: login, attributes: attributes)
    }

    /// `user` with what this row says applied: only the fields the file maps (and fills).
    /// The email changes only when the row was matched by its login.
    public func applied(to user: User) -> UserDraft {
        var draft = user.draft
        if let name, !name.isEmpty { draft.name = name }
        if !email.isEmpty, email.lowercased() != user.email.lowercased() { draft.email = email }
        if let role { draft.role = role }
        if let status { draft.status = status }
        draft.attributes = attributes
        return draft
    }
}

/// An import file read and checked before anything is sent: every row, good or bad.
public struct ImportPlan: Sendable, Equatable {
    public var path: String
    public var mapping: ImportMapping
    public var rows: [ImportRow]
    /// A hash of the file's bytes: with the line, each row's idempotency key.
    public var fileHash: String

    public init(path: String, mapping: ImportMapping, rows: [ImportRow], fileHash: String) {
        self.path = path
        self.mapping = mapping
        self.rows = rows
        self.fileHash = fileHash
    }

    public var validRows: [ImportRow] { rows.filter(\.isValid) }
    public var badRows: [ImportRow] { rows.filter { !$0.isValid } }
    public var validCount: Int { rows.count { $0.isValid } }
    public var badCount: Int { rows.count - validCount }

    /// The same row of the same file always gets the same key: a create whose answer was
    /// lost, sent again (in this run or the next), is answered with the user it made.
    public func idempotencyKey(for row: ImportRow) -> String {
        "roster-import-\(fileHash)-\(row.line)"
    }

    /// A group the import creates: the same file and group name, the same key.
    public func idempotencyKey(forGroup name: String) -> String {
        "roster-import-\(fileHash)-group-\(StableHash.hex(name.lowercased().utf8))"
    }
}
