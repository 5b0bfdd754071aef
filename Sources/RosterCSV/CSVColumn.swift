import RosterKit

/// A column of the user export, named as the wire contract names the field. Which ones, and
/// in which order, is the `exportColumns` setting.
public enum CSVColumn: String, CaseIterable, Sendable, Equatable {
    case id, name, email, role, status, groups
    case createdAt = "created_at"
    case updatedAt = "updated_at"

    /// What an export has when the settings name none: everything a person reads, in the
    /// order the list shows it, and the id to find the user again.
    public static let defaultSelection: [CSVColumn] = [.id, .name, .email, .role, .status, .groups, .createdAt]

    /// The columns named in the settings; the error names what is not a column.
    public static func parse(_ names: [String]) throws(CSVColumnError) -> [CSVColumn] {
        guard !names.isEmpty else { throw CSVColumnError("exportColumns must name at least one column.") }
        var columns: [CSVColumn] = []
        for name in names {
            guard let column = CSVColumn(rawValue: name.lowercased()) else {
                throw CSVColumnError("exportColumns: “\(name)” is not a column; use \(allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            guard !columns.contains(column) else { throw CSVColumnError("exportColumns names “\(name)” twice.") }
            columns.append(column)
        }
        return columns
    }

    /// The user's value in this column, as text. Group names are joined with "; " (a comma
    /// would be quoted anyway, but a semicolon reads as a list in every spreadsheet).
    public func value(of user: User) -> String {
        switch self {
        case .id: user.id
        case .name: user.name
        case .email: user.email
        case .role: user.role.rawValue
        case .status: user.status.rawValue
        case .groups: user.groups.map(\.name).joined(separator: "; ")
        case .createdAt: ISO8601Timestamp.format(user.createdAt)
        case .updatedAt: ISO8601Timestamp.format(user.updatedAt)
        }
    }
}

public struct CSVColumnError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
