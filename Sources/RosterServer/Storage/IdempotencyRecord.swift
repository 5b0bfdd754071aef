import Foundation
import GRDB

/// How key records are read from SQLite's `idempotency_keys` (the rule they serve is
/// `KeyedCreate`'s; `SQLiteRows` writes them).
enum IdempotencyRecord {
    /// The record of `key` if it was created after `milliseconds`: the body it came with and its first answer.
    static func fetch(_ key: String, createdAfter milliseconds: Int64, in db: Database) throws -> (body: Data, answer: IdempotentAnswer)? {
        guard let row = try Row.fetchOne(db.cachedStatement(literal: """
            SELECT request_body, user_id, response FROM idempotency_keys WHERE key = \(key) AND created_at > \(milliseconds)
            """)) else { return nil }
        let response: String = row[2]
        return (row[0], IdempotentAnswer(resourceID: row[1], response: Array(response.utf8)))
    }
}
