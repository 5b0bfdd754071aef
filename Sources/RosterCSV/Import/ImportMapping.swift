/// Which field each column of an import file fills: first as the headers say
/// (`ImportHeader`), then as the person sets it in the preview. A column maps to one field at
/// most, a field to one column; a column of no field is ignored.
public struct ImportMapping: Sendable, Equatable {
    /// The header line, as written.
    public let headers: [String]
    /// Per column, its field; nil is ignored.
    public private(set) var fields: [ImportField?]

    public init(headers: [String]) {
        self.headers = headers
        fields = ImportHeader.recognise(headers)
    }

    public init(headers: [String], fields: [ImportField?]) {
        self.headers = headers
        self.fields = fields.count == headers.count ? fields : ImportHeader.recognise(headers)
    }

    /// Puts `field` on `column` (nil: ignore the column); a column that had the field loses it.
    public mutating func assign(_ field: ImportField?, toColumn column: Int) {
        guard fields.indices.contains(column) else { return }
        if let field, let other = self.column(of: field) { fields[other] = nil }
        fields[column] = field
    }

    public func column(of field: ImportField) -> Int? { fields.firstIndex(of: field) }

    public func has(_ field: ImportField) -> Bool { column(of: field) != nil }

    /// Whether the rows carry a name: a name column, or a first or last name.
    public var hasName: Bool { has(.name) || has(.firstName) || has(.lastName) }

    /// Whether the file says anything of the status, in any of its forms.
    public var hasStatus: Bool { has(.status) || has(.enabled) || has(.blockSignIn) }

    /// What must still be mapped before the rows can be read: a column to find the user by.
    public var missing: String? {
        has(.email) || has(.login) ? nil : "no column is the email (or login): press m to map one"
    }

    /// Columns ignored: their header names, for the preview.
    public var ignored: [String] { zip(headers, fields).filter { $0.1 == nil }.map(\.0) }

    /// The headers as one key: the mapping a person made is remembered for this header set.
    public var headerKey: String {
        headers.map { ImportHeader.squeezed($0) }.joined(separator: "\u{1F}")
    }
}
