import GRDB
import GRDBSQLite

/// Reads a text column of a statement's current row where SQLite keeps it, without a copy.
///
/// GRDB's `Row.withUnsafeData` wraps the bytes in a `Data` through generic, existential calls:
/// once per user, that was 6% of a first page's time (perf under wrk -c8, list cache off). The
/// page only appends the bytes, so it reads them straight from SQLite's C API.
enum StoredText {
    /// Steps `statement` and hands `body` column `column` of each row (empty for NULL).
    /// The bytes are valid only during the call.
    static func forEachRow(
        of statement: Statement, arguments: StatementArguments, column: Int32 = 0,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while try rows.next() != nil {
            try body(bytes(of: statement, column: column))
        }
    }

    /// Column `column` of the statement's current row, until it steps again.
    static func bytes(of statement: Statement, column: Int32) -> UnsafeRawBufferPointer {
        let sqlite = statement.sqliteStatement
        // sqlite3_column_text first, then sqlite3_column_bytes: SQLite's documented order.
        guard let text = sqlite3_column_text(sqlite, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqlite, column)))
    }
}
