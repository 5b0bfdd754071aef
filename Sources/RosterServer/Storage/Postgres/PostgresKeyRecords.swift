import Foundation
import Logging
import PostgresNIO

/// How key records are read from PostgreSQL's `idempotency_keys` (the rule they serve is
/// `KeyedCreate`'s; `PostgresRows` writes them).
enum PostgresKeyRecords {
    /// The record of `key` if it was created after `milliseconds`: the body it came with and its first answer.
    static func fetch(
        _ key: String, createdAfter milliseconds: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> (body: Data, answer: IdempotentAnswer)? {
        let rows = try await connection.query("""
            SELECT request_body, user_id, response FROM idempotency_keys WHERE key = \(key) AND created_at > \(milliseconds)
            """, logger: logger)
        var found: (body: Data, answer: IdempotentAnswer)?
        for try await (body, resourceID, response) in rows.decode((ByteBuffer, String, String).self) {
            found = (Data(body.readableBytesView), IdempotentAnswer(resourceID: resourceID, response: Array(response.utf8)))
        }
        return found
    }
}

extension PostgresStore {
    /// The first answer to a live key, read without waiting for writers.
    func firstAnswer(to request: IdempotentRequest, at now: Date) async throws -> IdempotentAnswer? {
        let milliseconds = Milliseconds.of(now)
        return try await database.withConnection { connection in
            try KeyedCreate.answer(to: request, from: await PostgresKeyRecords.fetch(
                request.key, createdAfter: milliseconds - IdempotentRequest.lifetime, on: connection, logger: self.logger))
        }
    }
}
