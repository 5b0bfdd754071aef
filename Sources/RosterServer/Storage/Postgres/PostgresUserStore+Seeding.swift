import Foundation
import PostgresNIO
import RosterKit

/// Bulk insert for `--seed`: `COPY users FROM STDIN` in one transaction, with the indexes
/// dropped before and built once after (a million rows: seconds, where row-by-row index
/// upkeep, the trigram index above all, takes minutes).
extension PostgresUserStore {
    /// Rows per COPY data message: big enough that the round trips do not count.
    static let copyChunkBytes = 1 << 20

    /// COPY with the indexes rebuilt after is already the bulk path on PostgreSQL.
    func bulkInsert(_ users: [User]) async throws { try await insertAll(users) }

    func insertAll(_ users: [User]) async throws {
        try await write { connection in
            // Index builds sort in memory up to this; the default (64 MB) spills a million keys to disk.
            try await connection.query("SET LOCAL maintenance_work_mem = '512MB'", logger: self.logger)
            for index in PostgresSchema.userIndexes {
                try await connection.query(PostgresQuery(unsafeSQL: "DROP INDEX IF EXISTS \(index.name)"), logger: self.logger)
            }
            // The short-search counts are added below, from the users themselves.
            try await connection.query(
                PostgresQuery(unsafeSQL: "ALTER TABLE users DISABLE TRIGGER \(PostgresSchema.shortCountInsertTrigger)"),
                logger: self.logger)
            var shortCounts = PostgresShortGramCounts()
            try await connection.copyFrom(
                table: "users",
                columns: ["id", "name", "email", "role", "status", "created_at", "updated_at", "name_key", "email_key", "json"],
                logger: self.logger
            ) { writer in
                var chunk = ByteBuffer()
                chunk.reserveCapacity(Self.copyChunkBytes + 4096)
                for user in users {
                    shortCounts.add(user)
                    PostgresCopyText.appendRow([
                        user.id, user.name, user.email, user.role.rawValue, user.status.rawValue,
                        String(Milliseconds.of(user.createdAt)), String(Milliseconds.of(user.updatedAt)),
                        SortKey.of(user.name), SortKey.of(user.email), UserJSON.objectText(user),
                    ], to: &chunk)
                    if chunk.readableBytes >= Self.copyChunkBytes {
                        try await writer.write(chunk)
                        chunk.clear()
                    }
                }
                if chunk.readableBytes > 0 { try await writer.write(chunk) }
            }
            try await connection.query(
                PostgresQuery(unsafeSQL: "ALTER TABLE users ENABLE TRIGGER \(PostgresSchema.shortCountInsertTrigger)"),
                logger: self.logger)
            try await shortCounts.write(on: connection, logger: self.logger)
            for index in PostgresSchema.userIndexes {
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE \(index.definition)"), logger: self.logger)
            }
        }
        // Statistics for the planner, and the visibility map that lets a deep page skip its
        // rows in an index-only scan (`PostgresListQuery`); VACUUM cannot run in a transaction.
        try await database.client.query("VACUUM (ANALYZE) users", logger: logger)
        try await database.client.query("VACUUM (ANALYZE) user_keys", logger: logger)
    }
}

/// COPY's text format: columns split by tabs, rows by newlines; a backslash, tab, newline or
/// carriage return inside a value is written as its backslash escape.
enum PostgresCopyText {
    static func appendRow(_ values: [String], to buffer: inout ByteBuffer) {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            guard value.utf8.contains(where: needsEscape) else {
                buffer.writeString(value)
                continue
            }
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                default: buffer.writeInteger(byte)
                }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
