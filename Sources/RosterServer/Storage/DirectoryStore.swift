import Foundation
import RosterKit

/// What the Roster API's handlers ask of a directory, whatever database holds it: SQLite
/// (`SQLiteStore`, the embedded default) or PostgreSQL (`PostgresStore`, for replicas).
/// Drafts arrive validated and normalized; a store decides only what its database must decide.
/// Refusals are `StoreError`s; anything else is a database failure (a 500).
protocol DirectoryStore: Sendable {
    /// The API's answer to a list call: the envelope of the page.
    func listEnvelope(_ query: UserListQuery) async throws -> [UInt8]
    /// The members of a group, as a list call's envelope; `groupNotFound` when no group has that id.
    func membersEnvelope(groupID: String, query: UserQuery) async throws -> [UInt8]
    /// The API's answer to a get call; `notFound` when no user has that id.
    func getEnvelope(id: String) async throws -> [UInt8]

    func create(_ draft: UserDraft, at now: Date) async throws -> User
    /// A create sent with an `Idempotency-Key`: the key's first answer again when it was already
    /// used with the same body within its lifetime, otherwise a new user whose key record is
    /// written in the same transaction. Of creates racing with one key, in any process, exactly
    /// one inserts. `idempotencyKeyReused` when the key came with another body.
    func create(_ draft: UserDraft, at now: Date, idempotency request: IdempotentRequest) async throws -> CreateResult<User>
    /// The first answer to a live key, or nil when the key is new or expired.
    func firstAnswer(to request: IdempotentRequest, at now: Date) async throws -> IdempotentAnswer?
    /// `versionMismatch` when `ifMatch` (an `If-Match` header) names none of the user's
    /// current version (`User.entityTag`); nil changes the user whatever their version.
    func update(id: String, with draft: UserDraft, ifMatch: String?, at now: Date) async throws -> User
    /// Removes the user and, in the same transaction, their memberships; `versionMismatch`, and
    /// nothing removed, when `ifMatch` names none of their current version (as `update`).
    func delete(id: String, ifMatch: String?, at now: Date) async throws -> User

    func isEmpty() async throws -> Bool
    /// Inserts users as given (ids, times and all): the demo data.
    func insertAll(_ users: [User]) async throws
    /// Inserts many new users, and new groups of them, at once, building indexes once at the
    /// end: the seed.
    func bulkInsert(_ directory: BulkDirectory) async throws

    func groups(_ query: GroupQuery) async throws -> Page<Group>
    func group(id: String) async throws -> Group
    func createGroup(_ draft: GroupDraft, at now: Date) async throws -> Group
    /// A group create sent with an `Idempotency-Key`, as `create(_:at:idempotency:)` for users.
    func createGroup(_ draft: GroupDraft, at now: Date, idempotency request: IdempotentRequest) async throws -> CreateResult<Group>
    func renameGroup(id: String, to draft: GroupDraft, at now: Date) async throws -> Group
    func deleteGroup(id: String, at now: Date) async throws -> Group
    func setMembership(of userID: String, in groupID: String, isMember: Bool, at now: Date) async throws -> Group
    func changeMembers(of groupID: String, _ change: MembershipChange, at now: Date) async throws -> Group

    /// A number that moves after every committed write by any process on the database, read so
    /// that a request starting after a commit sees the moved value. A list answer kept under
    /// one generation is current for as long as the generation has not moved.
    func generation() async throws -> UInt64
}

extension DirectoryStore {
    /// Changes the user whatever their version.
    func update(id: String, with draft: UserDraft, at now: Date) async throws -> User {
        try await update(id: id, with: draft, ifMatch: nil, at: now)
    }

    /// Removes the user whatever their version.
    func delete(id: String, at now: Date) async throws -> User {
        try await delete(id: id, ifMatch: nil, at: now)
    }

    /// Inserts many new users, in no group, at once.
    func bulkInsert(_ users: [User]) async throws {
        try await bulkInsert(BulkDirectory(users: users))
    }
}
