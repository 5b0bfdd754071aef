import Foundation
import Logging
import PostgresNIO
import RosterKit

/// The rows of one PostgreSQL write transaction (`PostgresUserStore.write`), on its connection.
struct PostgresRows: DirectoryRows {
    let connection: PostgresConnection
    let logger: Logger

    // MARK: Users

    func user(id: String) async throws -> (seq: Int64, user: User)? {
        try await PostgresUserRows.fetchWithSeq(id: id, on: connection, logger: logger)
    }

    func insert(_ user: User, scim: SCIMUserWrite?) async throws -> Bool {
        try await PostgresUserRows.insert(user, scim: scim, on: connection, logger: logger)
    }

    func update(_ user: User, seq: Int64, scim: SCIMUserWrite?) async throws {
        try await PostgresUserRows.update(user, seq: seq, scim: scim, on: connection, logger: logger)
    }

    func followSCIMDocument(of user: User) async throws {
        try await PostgresSCIMUserDocument.follow(user, on: connection, logger: logger)
    }

    func deleteUser(seq: Int64) async throws {
        try await connection.query("DELETE FROM users WHERE seq = \(seq)", logger: logger)
    }

    func userSeqs(ofIDs ids: [String]) async throws -> [String: Int64] {
        try await PostgresUserRows.seqs(ofIDs: ids, on: connection, logger: logger)
    }

    func refreshJSON(userSeqs: [Int64]) async throws {
        try await PostgresUserRows.refreshJSON(userSeqs: userSeqs, on: connection, logger: logger)
    }

    // MARK: Groups

    func group(id: String) async throws -> (seq: Int64, group: Group)? {
        try await PostgresGroupRows.fetchWithSeq(id: id, on: connection, logger: logger)
    }

    func group(seq: Int64) async throws -> Group? {
        try await PostgresGroupRows.fetch(seq: seq, on: connection, logger: logger)
    }

    func insert(_ group: Group) async throws -> Bool {
        try await PostgresGroupRows.insert(group, on: connection, logger: logger)
    }

    func rename(groupSeq: Int64, to name: String, updatedAt: Date) async throws {
        try await PostgresGroupRows.rename(seq: groupSeq, to: name, updatedAt: updatedAt, on: connection, logger: logger)
    }

    func deleteGroup(seq: Int64) async throws {
        try await connection.query("DELETE FROM groups WHERE seq = \(seq)", logger: logger)
    }

    func memberSeqs(ofGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try await PostgresMemberships.userSeqs(ofGroupSeq: groupSeq, on: connection, logger: logger)
    }

    func add(userSeqs: [Int64], toGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try await PostgresMemberships.add(userSeqs: userSeqs, toGroupSeq: groupSeq, on: connection, logger: logger)
    }

    func remove(userSeqs: [Int64], fromGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try await PostgresMemberships.remove(userSeqs: userSeqs, fromGroupSeq: groupSeq, on: connection, logger: logger)
    }

    func touch(groupSeq: Int64, at now: Date) async throws {
        try await PostgresGroupRows.touch(seq: groupSeq, at: now, on: connection, logger: logger)
    }

    func setDocument(_ document: SCIMObject, ofGroupSeq groupSeq: Int64, updatedAt: Date?) async throws {
        let written = PostgresSCIMDocument(document)
        if let updatedAt {
            try await connection.query("""
                UPDATE groups SET scim = \(written.text), scim_json = \(written.jsonText)::jsonb,
                    updated_at = greatest(updated_at, \(Milliseconds.of(updatedAt))), revision = revision + 1
                WHERE seq = \(groupSeq)
                """, logger: logger)
        } else {
            try await connection.query(
                "UPDATE groups SET scim = \(written.text), scim_json = \(written.jsonText)::jsonb WHERE seq = \(groupSeq)", logger: logger)
        }
    }

    // MARK: SCIM

    func scimUser(id: String) async throws -> SCIMUserRecord? {
        try await PostgresSCIMRows.user(id: id, on: connection, logger: logger)
    }

    func scimGroup(id: String) async throws -> SCIMGroupRecord? {
        try await PostgresSCIMRows.group(id: id, on: connection, logger: logger)
    }

    // MARK: Idempotency keys

    func deleteKeys(createdAtOrBefore milliseconds: Int64) async throws {
        try await connection.query("DELETE FROM idempotency_keys WHERE created_at <= \(milliseconds)", logger: logger)
    }

    func keyRecord(_ key: String, createdAfter milliseconds: Int64) async throws -> (body: Data, answer: IdempotentAnswer)? {
        try await PostgresKeyRecords.fetch(key, createdAfter: milliseconds, on: connection, logger: logger)
    }

    func insertKeyRecord(_ request: IdempotentRequest, answer: IdempotentAnswer, atMilliseconds milliseconds: Int64) async throws {
        try await connection.query("""
            INSERT INTO idempotency_keys (key, request_body, user_id, response, created_at)
            VALUES (\(request.key), \(ByteBuffer(bytes: request.body)), \(answer.resourceID),
                    \(String(decoding: answer.response, as: UTF8.self)), \(milliseconds))
            """, logger: logger)
    }
}
