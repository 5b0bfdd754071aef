import Foundation
import GRDB

/// A create sent with an `Idempotency-Key`: the key, and the body it was sent with.
struct IdempotentRequest: Sendable {
    var key: String
    /// The request body's bytes, as the fingerprint a later use of the key is compared with.
    /// Kept whole rather than hashed: Foundation on Linux has no SHA-256, a 64-bit hash would
    /// leave collisions to reason about, and bodies are small (at most 64 KiB, a create's about
    /// 100 bytes) and kept only for a day. Compared byte for byte, as the draft's "same payload".
    var body: Data

    /// A user create's: its body as sent.
    static func userCreate(key: String, body: Data) -> IdempotentRequest {
        IdempotentRequest(key: key, body: body)
    }

    /// A group create's: its body after `POST /api/v1/groups` and a newline, so a key first used
    /// for a user is refused for a group (and the other way round) as a key reused with another
    /// body, never answered with the other resource. A user's recorded body is a JSON object,
    /// which never starts with that.
    static func groupCreate(key: String, body: Data) -> IdempotentRequest {
        IdempotentRequest(key: key, body: Data("POST /api/v1/groups\n".utf8) + body)
    }
}

/// The first answer given to a key: what a replay sends again.
struct IdempotentAnswer: Sendable, Equatable {
    /// The created user's or group's id (in the `user_id` column, named when only users had keys).
    var resourceID: String
    /// The whole envelope of the 201, as it was sent.
    var response: [UInt8]
}

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

    /// Keys are honoured for 24 hours after their first answer, as the API promises.
    static let lifetime: Int64 = 24 * 60 * 60 * 1000

    /// The first answer to `request.key` if the key is still live; throws
    /// `StoreError.idempotencyKeyReused` when it was used with another body.
    static func answer(to request: IdempotentRequest, atMilliseconds now: Int64, in db: Database) throws -> IdempotentAnswer? {
        let statement = try db.cachedStatement(sql: """
            SELECT request_body, user_id, response FROM idempotency_keys WHERE key = ? AND created_at > ?
            """)
        guard let row = try Row.fetchOne(statement, arguments: [request.key, now - lifetime]) else { return nil }
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
        try db.cachedStatement(sql: "DELETE FROM idempotency_keys WHERE created_at <= ?").execute(arguments: [now - lifetime])
    }
}
