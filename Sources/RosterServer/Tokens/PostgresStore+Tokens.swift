import Foundation
import PostgresNIO

/// Token writes run outside `write(_:)`: they change no user, so they do not move the write
/// generation the list caches key on.
extension PostgresStore: TokenStore {
    private static let columns = "name, secret_hash, scopes, created_at, expires_at, revoked_at, last_used_at"
    private typealias Columns = (String, String, String, Int64, Int64?, Int64?, Int64?)

    func createToken(_ record: TokenRecord) async throws {
        let inserted = try await database.withConnection { [logger] connection in
            let rows = try await connection.query("""
                INSERT INTO api_tokens (name, secret_hash, scopes, created_at, expires_at)
                VALUES (\(record.name), \(record.secretHash), \(TokenScope.list(record.scopes)),
                        \(Milliseconds.of(record.createdAt)), \(record.expiresAt.map(Milliseconds.of)))
                ON CONFLICT (name) DO NOTHING RETURNING name
                """, logger: logger)
            var inserted = false
            for try await _ in rows.decode(String.self) { inserted = true }
            return inserted
        }
        guard inserted else { throw TokenError.nameTaken(record.name) }
    }

    func tokens() async throws -> [TokenRecord] {
        try await database.withConnection { [logger] connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.columns) FROM api_tokens ORDER BY name COLLATE \"C\"", logger: logger)
            var records: [TokenRecord] = []
            for try await columns in rows.decode(Columns.self) { records.append(Self.record(columns)) }
            return records
        }
    }

    func token(secretHash: String) async throws -> TokenRecord? {
        try await database.withConnection { [logger] connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.columns) FROM api_tokens WHERE secret_hash = \(secretHash)", logger: logger)
            var found: TokenRecord?
            for try await columns in rows.decode(Columns.self) { found = Self.record(columns) }
            return found
        }
    }

    func revokeToken(named name: String, at date: Date) async throws -> Bool {
        try await database.withConnection { [logger] connection in
            let rows = try await connection.query(
                "UPDATE api_tokens SET revoked_at = \(Milliseconds.of(date)) WHERE name = \(name) AND revoked_at IS NULL RETURNING name",
                logger: logger)
            var revoked = false
            for try await _ in rows.decode(String.self) { revoked = true }
            return revoked
        }
    }

    func markUsed(name: String, at date: Date) async throws {
        try await database.withConnection { [logger] connection in
            _ = try await connection.query(
                "UPDATE api_tokens SET last_used_at = \(Milliseconds.of(date)) WHERE name = \(name)", logger: logger)
        }
    }

    private static func record(_ columns: Columns) -> TokenRecord {
        TokenRecord(
            name: columns.0, secretHash: columns.1,
            scopes: Set(columns.2.split(separator: ",").compactMap { TokenScope(rawValue: String($0)) }),
            createdAt: Milliseconds.date(columns.3), expiresAt: columns.4.map(Milliseconds.date),
            revokedAt: columns.5.map(Milliseconds.date), lastUsedAt: columns.6.map(Milliseconds.date))
    }
}
