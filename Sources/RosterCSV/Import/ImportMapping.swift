import RosterKit

/// Which field each column of an import file fills: first as the headers say
/// (`ImportHeader`), then as the person sets it in the preview. A column maps to one field at
/// most, a field to one column; a column of no field is ignored. Profile attributes map only
/// where the directory has them (`attributes`, from its traits).
public struct ImportMapping: Sendable, Equatable {
    /// The header line, as written.
    public let headers: [String]
    /// Per column, its field; nil is ignored.
    public private(set) var fields: [ImportField?]
    /// The profile attributes the directory has: the only ones a column may fill.
    public let attributes: [UserAttribute]

    public init(headers: [String], attributes: [UserAttribute] = []) {
        self.headers = headers
        self.attributes = attributes
        fields = ImportHeader.recognise(headers, attributes: attributes)
    }

    /// A mapping as remembered: a field that is an attribute the directory lacks is dropped.
    public init(headers: [String], fields: [ImportField?], attributes: [UserAttribute] = []) {
        self.headers = headers
        self.attributes = attributes
        self.fields = fields.count == headers.count
            ? fields.map { field in field?.attribute.map { attributes.contains($0) } ?? true ? field : nil }
            : ImportHeader.recognise(headers, attributes: attributes)
    }

    /// This mapping on a directory with `attributes`: a column on an attribute it lacks is
    /// ignored; an ignored column whose header names one it has is placed on it.
    public func placing(attributes: [UserAttribute]) -> ImportMapping {
        var placed = ImportMapping(headers: headers, fields: fields, attributes: attributes)
        for (column, field) in ImportHeader.recognise(headers, attributes: attributes).enumerated()
        where field?.attribute != nil && placed.fields[column] == nil && !placed.has(field!) {
            placed.fields[column] = field
        }
        return placed
    }

    /// The fields a column may fill here, in the order the preview's `m` offers them.
    public var choices: [ImportField] {
        ImportField.allCases.filter { $0.attribute.map(attributes.contains) ?? true }
    }

    /// Puts `field` on `column` (nil: ignore the column); a column that had the field loses it.
    public mutating func assign(_ field: ImportField?, toColumn column: Int) {
        guard fields.indices.contains(column), field?.attribute.map(attributes.contains) ?? true else { return }
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

    /// The ignored columns as the preview lists them: one that names an attribute the
    /// directory lacks says so ("Job title [jobTitle] (no title here)").
    public var ignoredNotes: [String] {
        ignored.map { header in
            guard let attribute = ImportHeader.field(for: header)?.attribute, !attributes.contains(attribute) else { return header }
            return "\(header) (no \(attribute.label) here)"
        }
    }

    /// The headers as one key: the mapping a person made is remembered for this header set.
    public var headerKey: String {
        headers.map { ImportHeader.squeezed($0) }.joined(separator: "\u{1F}")
    }
}
