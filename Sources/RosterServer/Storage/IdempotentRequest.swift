import Foundation

/// A create sent with an `Idempotency-Key`: the key, and the body it was sent with.
struct IdempotentRequest: Sendable {
    /// Keys are honoured for 24 hours after their first answer, as the API promises.
    static let lifetime: Int64 = 24 * 60 * 60 * 1000

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
