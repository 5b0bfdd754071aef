import Foundation
import GRDB

/// How key records are read from and written to SQLite's `idempotency_keys` (the rule they
/// serve is `KeyedCreate`'s).
enum IdempotencyRecord {
    /// The record of `key` if it was created after `milliseconds`: the body it came with and its first answer.
    static func fetch(_ key: String, createdAfter milliseconds: Int64, in db: Database) throws -> (body: Data, answer: IdempotentAnswer)? {
        let statement = try db.cachedStatement(sql: """
            SELECT request_body, user_id, response FROM idempotency_keys WHERE key = ? AND created_at > ?
            """)
        guard let row = try Row.fetchOne(statement, arguments: [key, milliseconds]) else { return nil }
        let response: String = row[2]
        return (row[0], IdempotentAnswer(resourceID: row[1], response: Array(response.utf8)))
    }

    /// Records the first answer to a key; an expired record of the same key must be deleted first.
    static func insert(_ request: IdempotentRequest, answer: IdempotentAnswer, atMilliseconds now: Int64, in db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO idempotency_keys (key, request_body, user_id, response, created_at) VALUES (?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [
            request.key, request.body, answer.resourceID, String(decoding: answer.response, as: UTF8.self), now,
        ])
    }

    static func delete(createdAtOrBefore milliseconds: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM idempotency_keys WHERE created_at <= ?").execute(arguments: [milliseconds])
    }
}
