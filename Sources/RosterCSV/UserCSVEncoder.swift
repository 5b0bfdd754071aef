import RosterKit

/// Users as CSV records in the chosen columns: a header line, then one record per user.
public struct UserCSVEncoder: Sendable {
    public let columns: [CSVColumn]

    public init(columns: [CSVColumn] = CSVColumn.defaultSelection) {
        self.columns = columns.isEmpty ? CSVColumn.defaultSelection : columns
    }

    public var header: String { CSVField.record(columns.map(\.rawValue)) }

    public func record(for user: User) -> String {
        CSVField.record(columns.map { $0.value(of: user) })
    }

    public func records(for users: [User]) -> String {
        users.map(record(for:)).joined()
    }
}
