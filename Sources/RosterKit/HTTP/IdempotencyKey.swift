import Foundation

/// The `Idempotency-Key` request header (IETF httpapi draft "The Idempotency-Key HTTP Header
/// Field"): a server that honours it answers a request sent again with the same key and body
/// with its first answer instead of acting twice.
public enum IdempotencyKey {
    public static let header = "Idempotency-Key"

    /// A fresh key for one user action: a random UUID.
    public static func make() -> String {
        UUID().uuidString.lowercased()
    }
}
