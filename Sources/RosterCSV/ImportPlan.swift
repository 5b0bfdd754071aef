import RosterKit

/// One data record of an import file, checked: the draft to create, or why it cannot be.
public struct ImportRow: Sendable, Equatable {
    /// The file's line where the record starts (1 is the header), as an editor numbers it.
    public var line: Int
    public var name: String
    public var email: String
    /// What will be sent; nil for a bad row.
    public var draft: UserDraft?
    /// Why the row cannot be imported; nil for a good one.
    public var problem: String?

    public var isValid: Bool { draft != nil }
}

/// An import file read and checked before anything is sent: every row, good or bad.
public struct ImportPlan: Sendable, Equatable {
    public var path: String
    public var rows: [ImportRow]
    /// A hash of the file's bytes: with the line, each row's idempotency key.
    public var fileHash: String

    public init(path: String, rows: [ImportRow], fileHash: String) {
        self.path = path
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
}
