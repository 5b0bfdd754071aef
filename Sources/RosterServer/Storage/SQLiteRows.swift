import Foundation
import GRDB
import RosterKit

/// The rows of one SQLite write transaction (`SQLiteWriter`): each call runs its statements on
/// the writer connection, inside the transaction.
struct SQLiteRows: DirectoryRows {
    let transaction: SQLiteTransaction

    // MARK: Users

    func user(id: String) async throws -> (seq: Int64, user: User)? {
        try await transaction.run { db in try UserRow.fetchWithSeq(id: id, in: db) }
    }

    func insert(_ user: User, scim: SCIMUserWrite?) async throws -> Bool {
        try await transaction.run { db in try UserRow.insert(user, scim: scim, in: db) }
    }

    func update(_ user: User, seq: Int64, scim: SCIMUserWrite?) async throws {
        try await transaction.run { db in try UserRow.update(user, seq: seq, scim: scim, in: db) }
    }

    func followSCIMDocument(of user: User) async throws {
        try await transaction.run { db in try SCIMUserDocument.follow(user, in: db) }
    }

    func deleteUser(seq: Int64) async throws {
        try await transaction.run { db in try db.execute(literal: "DELETE FROM users WHERE seq = \(seq)") }
    }

    func userSeqs(ofIDs ids: [String]) async throws -> [String: Int64] {
        try await transaction.run { db in
            var seqs: [String: Int64] = [:]
            for id in ids where seqs[id] == nil {
                if let seq = try UserRow.seq(id: id, in: db) { seqs[id] = seq }
            }
            return seqs
        }
    }

    func refreshJSON(userSeqs: [Int64]) async throws {
        try await transaction.run { db in try StoredUserJSON.refresh(userSeqs: userSeqs, in: db) }
    }

    // MARK: Groups

    func group(id: String) async throws -> (seq: Int64, group: Group)? {
        try await transaction.run { db in try GroupRow.fetchWithSeq(id: id, in: db) }
    }

    func group(seq: Int64) async throws -> Group? {
        try await transaction.run { db in try GroupRow.fetch(seq: seq, in: db) }
    }

    func insert(_ group: Group) async throws -> Bool {
        try await transaction.run { db in
            do {
                try GroupRow.insert(group, in: db)
                return true
            } catch {
                switch GroupRow.uniqueViolation(error) {
                case .name: throw StoreError.groupNameTaken
                case .id: return false
                case nil: throw error
                }
            }
        }
    }

    func rename(groupSeq: Int64, to name: String, updatedAt: Date) async throws {
        try await transaction.run { db in
            do {
                try GroupRow.rename(seq: groupSeq, to: name, updatedAt: updatedAt, in: db)
            } catch let error where GroupRow.uniqueViolation(error) == .name {
                throw StoreError.groupNameTaken
            }
        }
    }

    func deleteGroup(seq: Int64) async throws {
        try await transaction.run { db in try db.execute(literal: "DELETE FROM groups WHERE seq = \(seq)") }
    }

    func memberSeqs(ofGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try await transaction.run { db in try Memberships.userSeqs(ofGroupSeq: groupSeq, in: db) }
    }

    func add(userSeqs: [Int64], toGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try await transaction.run { db in
            try userSeqs.filter { try Memberships.add(userSeq: $0, toGroupSeq: groupSeq, in: db) }
        }
    }

    func remove(userSeqs: [Int64], fromGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try await transaction.run { db in
            try userSeqs.filter { try Memberships.remove(userSeq: $0, fromGroupSeq: groupSeq, in: db) }
        }
    }

    func touch(groupSeq: Int64, at now: Date) async throws {
        try await transaction.run { db in try GroupRow.touch(seq: groupSeq, at: now, in: db) }
    }

    func setDocument(_ document: SCIMObject, ofGroupSeq groupSeq: Int64, updatedAt: Date?) async throws {
        let text = SCIMDocumentColumn.text(document)
        try await transaction.run { db in
            if let updatedAt {
                try db.execute(literal: """
                    UPDATE groups SET scim = \(text), updated_at = max(updated_at, \(Milliseconds.of(updatedAt))),
                        revision = revision + 1
                    WHERE seq = \(groupSeq)
                    """)
            } else {
                try db.execute(literal: "UPDATE groups SET scim = \(text) WHERE seq = \(groupSeq)")
            }
        }
    }

    // MARK: SCIM

    func scimUser(id: String) async throws -> SCIMUserRecord? {
        try await transaction.run { db in try SCIMUserRecord.fetch(id: id, in: db) }
    }

    func scimGroup(id: String) async throws -> SCIMGroupRecord? {
        try await transaction.run { db in try SCIMGroupRecord.fetch(id: id, in: db) }
    }

    // MARK: Idempotency keys

    func deleteKeys(createdAtOrBefore milliseconds: Int64) async throws {
        try await transaction.run { db in try IdempotencyRecord.delete(createdAtOrBefore: milliseconds, in: db) }
    }

    func keyRecord(_ key: String, createdAfter milliseconds: Int64) async throws -> (body: Data, answer: IdempotentAnswer)? {
        try await transaction.run { db in try IdempotencyRecord.fetch(key, createdAfter: milliseconds, in: db) }
    }

    func insertKeyRecord(_ request: IdempotentRequest, answer: IdempotentAnswer, atMilliseconds milliseconds: Int64) async throws {
        try await transaction.run { db in try IdempotencyRecord.insert(request, answer: answer, atMilliseconds: milliseconds, in: db) }
    }
}
