import RosterKit

/// What the store can refuse. Every other failure is a database error and becomes a 500.
enum StoreError: Error, Equatable {
    /// No user has that id.
    case notFound
    /// The unique index on the folded email refused the write: another user has that email.
    case emailTaken
    /// An `Idempotency-Key` still live was first used with another request body.
    case idempotencyKeyReused
    /// No group has that id.
    case groupNotFound
    /// The unique index on the folded group name refused the write.
    case groupNameTaken
    /// A membership change named users that do not exist: one field error per id.
    case unknownUsers([FieldError])
    /// The unique index on the folded userName (or the email of a user without one) refused the write.
    case userNameTaken
    /// `If-Match` named a version the resource no longer has.
    case versionMismatch
    /// A read ran past the store's query budget and was stopped.
    case queryTooSlow
    /// The database could not be reached, cut the connection, or did not answer within the
    /// store's deadline (`PostgresDatabase.withConnection`): worth trying again shortly.
    case databaseUnavailable
}
