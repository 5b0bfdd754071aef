import Foundation
import Logging

/// `roster-server token create|list|revoke`: named tokens managed on the database directly,
/// so whoever runs them needs the database, not a token.
public enum TokenAdministration {
    /// Makes a token and returns it with its secret, the one time the secret is ever shown.
    public static func create(
        database: String, name: String, scopes: Set<TokenScope>, lifetime: TimeInterval?, logger: Logger
    ) async throws -> (record: TokenRecord, secret: String) {
        try TokenRecord.checkName(name)
        guard name != TokenIdentity.bootstrap.name else {
            throw TokenError("“\(TokenIdentity.bootstrap.name)” is the name of --token (ROSTER_TOKEN); choose another name.")
        }
        let secret = ServerConfiguration.randomToken()
        let now = Date()
        let record = TokenRecord(
            name: name, secretHash: TokenRecord.hash(Array(secret.utf8)), scopes: scopes, createdAt: now,
            expiresAt: lifetime.map { now.addingTimeInterval($0) })
        try await withTokens(database, logger: logger) { try await $0.createToken(record) }
        return (record, secret)
    }

    public static func list(database: String, logger: Logger) async throws -> [TokenRecord] {
        try await withTokens(database, logger: logger) { try await $0.tokens() }
    }

    /// - Throws: `TokenError` when no live token has that name.
    public static func revoke(database: String, name: String, logger: Logger) async throws {
        let revoked = try await withTokens(database, logger: logger) { try await $0.revokeToken(named: name, at: Date()) }
        guard revoked else { throw TokenError("No live token is named “\(name)”; roster-server token list shows them.") }
    }

    /// "90d", "12h", "30m", "2w" → seconds.
    public static func lifetime(_ text: String) throws(TokenError) -> TimeInterval {
        let units: [Character: TimeInterval] = ["m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0, count <= 100_000 else {
            throw TokenError("--expires \(text.prefix(40)) is not a lifetime like 30m, 12h, 90d or 2w.")
        }
        return TimeInterval(count) * unit
    }

    private static func withTokens<T: Sendable>(
        _ database: String, logger: Logger, _ body: (any TokenStore) async throws -> T
    ) async throws -> T {
        let backend = try await StoreBackend.open(DatabaseLocation(database), queryBudget: QueryBudget.standard, logger: logger)
        do {
            let result = try await body(backend.tokenStore)
            await backend.close()
            return result
        } catch {
            await backend.close()
            throw error
        }
    }
}
