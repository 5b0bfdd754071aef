import Foundation
import GRDB

extension SQLiteStore: TokenStore {
    func createToken(_ record: TokenRecord) async throws {
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM api_tokens WHERE name = ?)", arguments: [record.name]) == false else {
                throw TokenError.nameTaken(record.name)
            }
            try db.execute(
                sql: "INSERT INTO api_tokens (name, secret_hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [record.name, record.secretHash, TokenScope.list(record.scopes),
                            Milliseconds.of(record.createdAt), record.expiresAt.map(Milliseconds.of)])
        }
    }

    func tokens() async throws -> [TokenRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM api_tokens ORDER BY name").map(Self.tokenRecord)
        }
    }

    func token(secretHash: String) async throws -> TokenRecord? {
        try read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM api_tokens WHERE secret_hash = ?"), arguments: [secretHash])
                .map(Self.tokenRecord)
        }
    }

    func revokeToken(named name: String, at date: Date) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE api_tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                           arguments: [Milliseconds.of(date), name])
            return db.changesCount > 0
        }
    }

    func markUsed(name: String, at date: Date) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE api_tokens SET last_used_at = ? WHERE name = ?", arguments: [Milliseconds.of(date), name])
        }
    }

    private static func tokenRecord(_ row: Row) -> TokenRecord {
        TokenRecord(
            name: row["name"], secretHash: row["secret_hash"],
            scopes: Set((row["scopes"] as String).split(separator: ",").compactMap { TokenScope(rawValue: String($0)) }),
            createdAt: Milliseconds.date(row["created_at"]),
            expiresAt: (row["expires_at"] as Int64?).map(Milliseconds.date),
            revokedAt: (row["revoked_at"] as Int64?).map(Milliseconds.date),
            lastUsedAt: (row["last_used_at"] as Int64?).map(Milliseconds.date))
    }
}

extension TokenError {
    static func nameTaken(_ name: String) -> TokenError {
        TokenError("A token named “\(name)” exists already (revoked tokens keep their names, for the log); choose another name.")
    }
}
