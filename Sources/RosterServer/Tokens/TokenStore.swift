import Foundation

/// The named tokens, in the directory's database so every replica on it sees a revocation
/// at its next check (`TokenAuthority.freshness`).
protocol TokenStore: Sendable {
    /// - Throws: `TokenError` when a token (live or revoked) already has that name.
    func createToken(_ record: TokenRecord) async throws
    /// Every token, revoked ones too, by name.
    func tokens() async throws -> [TokenRecord]
    /// The token with this secret hash, live or not; nil when none has it.
    func token(secretHash: String) async throws -> TokenRecord?
    /// Marks the token revoked; false when no live token has that name.
    func revokeToken(named name: String, at date: Date) async throws -> Bool
    /// Notes when a token was last used (written at most once a minute per token by the caller).
    func markUsed(name: String, at date: Date) async throws
}
