import Foundation
import GRDB

/// How key records are read from and written to SQLite's `idempotency_keys` (the rule they
/// serve is `KeyedCreate`'s).
enum IdempotencyRecord {
    /// The record of `key` if it was created after `milliseconds`: the body it came with and its first answer.
    static func fetch(_ key: String, createdAfter milliseconds: Int64, in db: Database) throws -> (body: Data, answer: IdempotentAnswer)? {
        guard let row = try Row.fetchOne(db.cachedStatement(literal: """
            SELECT request_body, user_id, response FROM idempotency_keys WHERE key = \(key) AND created_at > \(milliseconds)
            """)) else { return nil }
        let response: String = row[2]
        return (row[0], IdempotentAnswer(resourceID: row[1], response: Array(response.utf8)))
    }

    /// Records the first answer to a key; an expired record of the same key must be deleted first.
    static func insert(_ request: IdempotentRequest, answer: IdempotentAnswer, atMilliseconds now: Int64, in db: Database) throws {
        try db.cachedStatement(literal: """
            INSERT INTO idempotency_keys (key, request_body, user_id, response, created_at)
            VALUES (\(request.key), \(request.body), \(answer.resourceID), \(String(decoding: answer.response, as: UTF8.self)), \(now))
            """).execute()
    }

    static func delete(createdAtOrBefore milliseconds: Int64, in db: Database) throws {
        try db.cachedStatement(literal: "DELETE FROM idempotency_keys WHERE created_at <= \(milliseconds)").execute()
    }
}
