import Foundation
import RosterKit

/// The rows of one write transaction, in one engine's SQL: what the write rules
/// (`RowStore`'s writes, `SCIMWrites`, `KeyedCreate`, `FreshID`) read and write, and nothing
/// they decide. SQLite's are `SQLiteRows`, PostgreSQL's `PostgresRows`. Rows are found by
/// id and then addressed by `seq`, the row number memberships refer to.
protocol DirectoryRows: Sendable {
    // MARK: Users

    /// The user with that id, their groups included.
    func user(id: String) async throws -> (seq: Int64, user: User)?
    /// Inserts a new user, with its SCIM columns when made over SCIM; false when its id is taken.
    /// - Throws: `emailTaken`, `userNameTaken`.
    func insert(_ user: User, scim: SCIMUserWrite?) async throws -> Bool
    /// Writes the user's columns, and its SCIM columns when written over SCIM, to row `seq`.
    /// - Throws: `emailTaken`, `userNameTaken`.
    func update(_ user: User, seq: Int64, scim: SCIMUserWrite?) async throws
    /// Keeps the user's SCIM document, if any, true to a Roster API edit.
    func followSCIMDocument(of user: User) async throws
    func deleteUser(seq: Int64) async throws
    /// The `seq`s of the users with these ids, by id; ids no user has are missing.
    func userSeqs(ofIDs ids: [String]) async throws -> [String: Int64]
    /// The id of the user in row `seq`, if any.
    func userID(seq: Int64) async throws -> String?
    /// Rewrites the stored JSON of these users from their rows and groups, and moves their SCIM version.
    func refreshJSON(userSeqs: [Int64]) async throws

    // MARK: Groups

    func group(id: String) async throws -> (seq: Int64, group: Group)?
    func group(seq: Int64) async throws -> Group?
    /// Inserts a new group with no members; false when its id is taken.
    /// - Throws: `groupNameTaken`.
    func insert(_ group: Group) async throws -> Bool
    /// - Throws: `groupNameTaken`.
    func rename(groupSeq: Int64, to name: String, updatedAt: Date) async throws
    /// Deletes the group; its memberships go with it.
    func deleteGroup(seq: Int64) async throws
    func memberSeqs(ofGroupSeq groupSeq: Int64) async throws -> [Int64]
    /// Adds these users to the group; answers those who were not in it yet.
    func add(userSeqs: [Int64], toGroupSeq groupSeq: Int64) async throws -> [Int64]
    /// Takes these users out of the group; answers those who were in it.
    func remove(userSeqs: [Int64], fromGroupSeq groupSeq: Int64) async throws -> [Int64]
    /// Marks a membership change: `updated_at` moves to `now` unless it is later, and the SCIM version moves.
    func touch(groupSeq: Int64, at now: Date) async throws
    /// Stores the group's SCIM document; with `updatedAt`, a SCIM replace, which also moves
    /// `updated_at` (never backwards) and the SCIM version.
    func setDocument(_ document: SCIMObject, ofGroupSeq groupSeq: Int64, updatedAt: Date?) async throws

    // MARK: SCIM

    func scimUser(id: String) async throws -> SCIMUserRecord?
    /// With its members.
    func scimGroup(id: String) async throws -> SCIMGroupRecord?

    // MARK: Idempotency keys

    /// Deletes the key records created at or before `milliseconds`.
    func deleteKeys(createdAtOrBefore milliseconds: Int64) async throws
    /// The record of `key` if it was created after `milliseconds`: the body it came with and its first answer.
    func keyRecord(_ key: String, createdAfter milliseconds: Int64) async throws -> (body: Data, answer: IdempotentAnswer)?
    func insertKeyRecord(_ request: IdempotentRequest, answer: IdempotentAnswer, atMilliseconds milliseconds: Int64) async throws

    // MARK: Audit

    /// Appends an entry to the audit log, in this transaction.
    func appendAudit(_ entry: AuditEntry) async throws
}
