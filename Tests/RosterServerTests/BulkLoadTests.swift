import Foundation
import GRDB
import RosterKit
@testable import RosterServer
import Testing

/// Seeding drops the users table's indexes and insert triggers, loads, and builds them again
/// (`BulkLoad`); afterwards the schema and every derived table must be as row-by-row inserts
/// would have left them.
@Suite("Bulk load: seeding builds indexes once, and leaves the schema as it was")
struct BulkLoadTests {
    private func schema(of pool: DatabasePool) async throws -> [String] {
        try await pool.read { db in
            try String.fetchAll(db, sql: "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
        }
    }

    @Test("the same schema, counts and search answers as inserting the users one by one")
    func sameAsRowByRow() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-bulk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // More than two of the load's chunks (`BulkLoadChunking.chunkSize`), each prepared on another thread.
        let users = DemoData.users(count: 9000)
        let bulk = try SQLiteStore(path: directory.appendingPathComponent("bulk.sqlite").path)
        let rowByRow = try SQLiteStore(path: directory.appendingPathComponent("rows.sqlite").path)
        let schemaBefore = try await schema(of: bulk.pool)
        // In two loads: the second adds to the counts the first made.
        try await bulk.bulkInsert(Array(users[..<4500]))
        try await bulk.bulkInsert(Array(users[4500...]))
        try await rowByRow.insertAll(users)

        #expect(try await schema(of: bulk.pool) == schemaBefore)
        #expect(try await schema(of: bulk.pool) == schema(of: rowByRow.pool))
        let countsSQL = "SELECT role, status, n FROM users_count WHERE n > 0 ORDER BY role, status"
        let bulkCounts = try bulk.pool.read { db in try Row.fetchAll(db, sql: countsSQL) }
        let rowCounts = try rowByRow.pool.read { db in try Row.fetchAll(db, sql: countsSQL) }
        #expect(bulkCounts == rowCounts)
        #expect(bulkCounts.count > 1)
        // Every row as written, in order, and the per-gram counts.
        for sql in ["SELECT seq, id, name, email, role, status, created_at, updated_at, name_key, email_key, json FROM users ORDER BY seq",
                    "SELECT gram, role, status, n FROM users_short_count WHERE n > 0 ORDER BY gram, role, status",
                    "SELECT k, v FROM users_search_config ORDER BY k"] {
            let bulkRows = try bulk.pool.read { db in try Row.fetchAll(db, sql: sql) }
            let rowByRowRows = try rowByRow.pool.read { db in try Row.fetchAll(db, sql: sql) }
            #expect(bulkRows == rowByRowRows, "\(sql)")
        }
        for query in [UserQuery(perPage: 200), UserQuery(search: "ivan"), UserQuery(search: "a", sort: .email),
                      UserQuery(search: "mar", role: .admin), UserQuery(page: 7, perPage: 50, sort: .createdAtDescending)] {
            #expect(try await bulk.list(query) == rowByRow.list(query), "\(query)")
        }
        // The unique indexes are back: a taken email is refused.
        await #expect(throws: StoreError.emailTaken) {
            try await bulk.create(UserDraft(name: "Again", email: users[0].email.uppercased()), at: Date())
        }
        try bulk.pool.close()
        try rowByRow.pool.close()
    }
}
