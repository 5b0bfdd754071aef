import Foundation
import PostgresNIO
import RosterKit

/// Bulk insert for `--seed`: `COPY users FROM STDIN` in one transaction, with the indexes
/// dropped before and built once after (a million rows: seconds, where row-by-row index
/// upkeep, the trigram index above all, takes minutes), then the groups and their memberships.
extension PostgresStore {
    /// COPY with the indexes rebuilt after is already the bulk path on PostgreSQL.
    func insertAll(_ users: [User]) async throws { try await bulkInsert(BulkDirectory(users: users)) }

    private static let seedDisabledTriggers = [PostgresSchema.shortCountInsertTrigger, "user_emails_insert"]

    func bulkInsert(_ directory: BulkDirectory) async throws {
        let users = directory.users
        try await write(deadline: PostgresDatabase.maintenanceDeadline) { connection in
            // Index builds sort in memory up to this; the default (64 MB) spills a million keys to disk.
            try await connection.query("SET LOCAL maintenance_work_mem = '512MB'", logger: self.logger)
            for index in PostgresSchema.userIndexes {
                try await connection.query(PostgresQuery(unsafeSQL: "DROP INDEX IF EXISTS \(index.name)"), logger: self.logger)
            }
            // The short-search counts are added below, from the users themselves; seeded users
            // have no SCIM document, so no `user_emails` rows.
            for trigger in Self.seedDisabledTriggers {
                try await connection.query(PostgresQuery(unsafeSQL: "ALTER TABLE users DISABLE TRIGGER \(trigger)"), logger: self.logger)
            }
            // Each chunk's COPY text and gram counts are made on other threads while the one
            // before it is sent (making them is most of the seed's time on this side).
            var chunks = BulkLoadPipeline(users, make: PostgresCopyText.rows)
            try await connection.copyFrom(
                table: "users",
                columns: ["id", "name", "email", "role", "status", "created_at", "updated_at", "name_key", "email_key", "json"],
                logger: self.logger
            ) { writer in
                while let rows = await chunks.value() {
                    try await writer.write(rows)
                }
            }
            for trigger in Self.seedDisabledTriggers {
                try await connection.query(PostgresQuery(unsafeSQL: "ALTER TABLE users ENABLE TRIGGER \(trigger)"), logger: self.logger)
            }
            try await chunks.counts.total.addGrams(on: connection, logger: self.logger)
            for index in PostgresSchema.userIndexes {
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE \(index.definition)"), logger: self.logger)
            }
            try await PostgresBulkGroups.insert(directory, on: connection, logger: self.logger)
        }
        // Statistics for the planner, and the visibility map that lets a deep page skip its
        // rows in an index-only scan (`PostgresListQuery`); VACUUM cannot run in a transaction.
        try await database.maintain("VACUUM (ANALYZE) users")
        try await database.maintain("VACUUM (ANALYZE) user_keys")
        if !directory.groups.isEmpty {
            try await database.maintain("VACUUM (ANALYZE) memberships")
        }
    }
}

/// COPY's text format: columns split by tabs, rows by newlines; a backslash, tab, newline or
/// carriage return inside a value is written as its backslash escape.
enum PostgresCopyText {
    /// `users` as COPY rows of the seed's columns, their grams added to `counts` (a
    /// `BulkLoadPipeline`'s `make`).
    static func rows(_ users: ArraySlice<User>, counting counts: inout ShortGramCounts) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: users.count * 400)
        for user in users {
            let nameKey = SortKey.of(user.name), emailKey = SortKey.of(user.email)
            counts.add(role: user.role.rawValue, status: user.status.rawValue, keys: [nameKey, emailKey])
            appendRow([
                user.id, user.name, user.email, user.role.rawValue, user.status.rawValue,
                String(Milliseconds.of(user.createdAt)), String(Milliseconds.of(user.updatedAt)),
                nameKey, emailKey, UserJSON.objectText(user),
            ], to: &buffer)
        }
        return buffer
    }

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
