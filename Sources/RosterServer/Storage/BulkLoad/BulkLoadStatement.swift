import GRDB
import GRDBSQLite

/// `UserRow.insertSQL`, stepped through SQLite's own API: each text is bound where it lies in
/// its chunk's buffer (`SQLITE_STATIC`, no copy), with none of `StatementArguments`' boxing.
/// GRDB does not see these steps, so no transaction observer would hear of the rows (the
/// store registers none).
struct BulkLoadStatement {
    private let statement: Statement
    private let connection: SQLiteConnection

    init(_ db: Database) throws {
        statement = try db.makeStatement(sql: UserRow.insertSQL)
        connection = db.sqliteConnection!
        // The parameters' places below are `UserRow.insertSQL`'s; a changed statement must fail here.
        guard sqlite3_bind_parameter_count(statement.sqliteStatement) == 10 else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "UserRow.insertSQL no longer has 10 parameters", sql: statement.sql)
        }
    }

    /// Inserts every row of `rows`, appending each one's `seq` to `seqs` (what memberships refer to).
    /// - Throws: the `DatabaseError` of the first row SQLite refuses (a taken id or email).
    func insert(_ rows: BulkLoadRows, seqs: inout [Int64]) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_clear_bindings(handle) } // the buffer's pointers die with this call
        try rows.bytes.withUnsafeBufferPointer { bytes in
            for row in 0..<rows.count {
                for column in BulkLoadRows.TextColumn.allCases {
                    let range = rows.range(of: column, inRow: row)
                    // An empty text still needs a non-null pointer, or SQLite binds NULL.
                    let start = UnsafeRawPointer(bytes.baseAddress! + range.lowerBound)
                    try check(sqlite3_bind_text(handle, Self.parameter(of: column), start, Int32(range.count), nil), SQLITE_OK)
                }
                try check(sqlite3_bind_int64(handle, Self.createdAtParameter, rows.times[row].created), SQLITE_OK)
                try check(sqlite3_bind_int64(handle, Self.updatedAtParameter, rows.times[row].updated), SQLITE_OK)
                let code = sqlite3_step(handle)
                defer { sqlite3_reset(handle) }
                try check(code, SQLITE_DONE)
                seqs.append(sqlite3_last_insert_rowid(connection))
            }
        }
    }

    /// Throws SQLite's error (read before the statement is reset) unless `code` is `expected`.
    private func check(_ code: Int32, _ expected: Int32) throws {
        guard code == expected else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
        }
    }

    // The parameters' places in `UserRow.insertSQL`: id, name, email, role, status, created_at,
    // updated_at, name_key, email_key, json.
    private static let createdAtParameter: Int32 = 6
    private static let updatedAtParameter: Int32 = 7

    private static func parameter(of column: BulkLoadRows.TextColumn) -> Int32 {
        switch column {
        case .id: 1
        case .name: 2
        case .email: 3
        case .role: 4
        case .status: 5
        case .nameKey: 8
        case .emailKey: 9
        case .json: 10
        }
    }
}
