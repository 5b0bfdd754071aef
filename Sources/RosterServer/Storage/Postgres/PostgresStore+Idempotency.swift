import Foundation
import Logging
import PostgresNIO
import RosterKit

/// Creates with an `Idempotency-Key` on PostgreSQL, with SQLite's semantics
/// (`IdempotencyRecord`): the key's record is written in the create's own transaction. Writes
/// take turns on the generation row across every process, so of creates racing with one key
/// exactly one finds no record and inserts; the others, once it commits, replay its answer.
extension PostgresStore {
    func create(_ draft: UserDraft, at now: Date, idempotency request: IdempotentRequest) async throws -> CreateResult<User> {
        let milliseconds = Milliseconds.of(now)
        return try await write { connection in
            try await self.keyedCreate(request, atMilliseconds: milliseconds, on: connection) {
                let user = try await PostgresUserRows.insert(draft, atMilliseconds: milliseconds, on: connection, logger: self.logger)
                return (user, IdempotentAnswer(resourceID: user.id, response: UserJSON.envelope(user)))
            }
        }
    }

    /// The first answer to `request`'s key when it has one, else `create`'s result with the
    /// key recorded: the whole of a keyed create, inside its write transaction.
    func keyedCreate<Resource: Sendable>(
        _ request: IdempotentRequest, atMilliseconds milliseconds: Int64, on connection: PostgresConnection,
        _ create: () async throws -> (resource: Resource, answer: IdempotentAnswer)
    ) async throws -> CreateResult<Resource> {
        try await connection.query(
            "DELETE FROM idempotency_keys WHERE created_at <= \(milliseconds - IdempotentRequest.lifetime)", logger: logger)
        if let first = try await Self.answer(to: request, atMilliseconds: milliseconds, on: connection, logger: logger) {
            return .replayed(first)
        }
        let created = try await create()
        let response = String(decoding: created.answer.response, as: UTF8.self)
        try await connection.query("""
            INSERT INTO idempotency_keys (key, request_body, user_id, response, created_at)
            VALUES (\(request.key), \(ByteBuffer(bytes: request.body)), \(created.answer.resourceID), \(response), \(milliseconds))
            """, logger: logger)
        return .created(created.resource, created.answer)
    }

    /// The first answer to a live key, read without waiting for writers.
    func firstAnswer(to request: IdempotentRequest, at now: Date) async throws -> IdempotentAnswer? {
        let milliseconds = Milliseconds.of(now)
        return try await database.client.withConnection { connection in
            try await Self.answer(to: request, atMilliseconds: milliseconds, on: connection, logger: self.logger)
        }
    }

    /// The first answer to `request.key` if the key is still live; `idempotencyKeyReused` when
    /// it was used with another body.
    private static func answer(
        to request: IdempotentRequest, atMilliseconds now: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> IdempotentAnswer? {
        let rows = try await connection.query("""
            SELECT request_body, user_id, response FROM idempotency_keys
            WHERE key = \(request.key) AND created_at > \(now - IdempotentRequest.lifetime)
            """, logger: logger)
        var found: (body: ByteBuffer, resourceID: String, response: String)?
        for try await row in rows.decode((ByteBuffer, String, String).self) { found = row }
        guard let found else { return nil }
        guard found.body.readableBytesView.elementsEqual(request.body) else { throw StoreError.idempotencyKeyReused }
        return IdempotentAnswer(resourceID: found.resourceID, response: Array(found.response.utf8))
    }
}
