import Foundation
import GRDB

/// How key records are read from and written to `idempotency_keys`. Only successful creates
/// are recorded: a refused one (409, 422) leaves no record, so its retry simply runs again.
enum IdempotencyRecord {
    /// The first answer to `request`'s key when it has one, else `create`'s result with the
    /// key recorded: the whole of a keyed create, inside its write transaction.
    static func create<Resource: Sendable>(
        _ request: IdempotentRequest, atMilliseconds now: Int64, in db: Database,
        _ create: () throws -> (resource: Resource, answer: IdempotentAnswer)
    ) throws -> CreateResult<Resource> {
        try purgeExpired(atMilliseconds: now, in: db)
        if let first = try answer(to: request, atMilliseconds: now, in: db) { return .replayed(first) }
        let created = try create()
        try insert(request, answer: created.answer, atMilliseconds: now, in: db)
        return .created(created.resource, created.answer)
    }

    /// The first answer to `request.key` if the key is still live; throws
    /// `StoreError.idempotencyKeyReused` when it was used with another body.
    static func answer(to request: IdempotentRequest, atMilliseconds now: Int64, in db: Database) throws -> IdempotentAnswer? {
        let statement = try db.cachedStatement(sql: """
            SELECT request_body, user_id, response FROM idempotency_keys WHERE key = ? AND created_at > ?
            """)
        guard let row = try Row.fetchOne(statement, arguments: [request.key, now - IdempotentRequest.lifetime]) else { return nil }
        let body: Data = row[0]
        guard body == request.body else { throw StoreError.idempotencyKeyReused }
        let response: String = row[2]
        return IdempotentAnswer(resourceID: row[1], response: Array(response.utf8))
    }

    /// Records the first answer to a key; an expired record of the same key must be purged first.
    static func insert(_ request: IdempotentRequest, answer: IdempotentAnswer, atMilliseconds now: Int64, in db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO idempotency_keys (key, request_body, user_id, response, created_at) VALUES (?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [
            request.key, request.body, answer.resourceID, String(decoding: answer.response, as: UTF8.self), now,
        ])
    }

    /// Deletes the records no longer honoured. Run inside each keyed create's transaction, so
    /// the table holds about a day of keyed creates and never needs a sweeper of its own.
    static func purgeExpired(atMilliseconds now: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM idempotency_keys WHERE created_at <= ?").execute(arguments: [now - IdempotentRequest.lifetime])
    }
}
