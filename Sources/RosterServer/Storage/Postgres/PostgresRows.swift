import Foundation
import Logging
import PostgresNIO
import RosterKit

/// The rows of one PostgreSQL write transaction (`PostgresStore.write`), on its connection:
/// the engine's SQL for the write rules (`RowStore`), and nothing they decide.
struct PostgresRows: DirectoryRows {
    let connection: PostgresConnection
    let logger: Logger

    private func run(_ sql: PostgresSQL) async throws -> [PostgresRow] {
        try await connection.query(sql.query, logger: logger).collect()
    }

    private func seqs(_ sql: PostgresSQL) async throws -> [Int64] {
        try await run(sql).map { try $0.decode(Int64.self) }
    }

    // MARK: Users

    func user(id: String) async throws -> (seq: Int64, user: User)? {
        try await PostgresUserRows.fetchWithSeq(id: id, on: connection, logger: logger)
    }

    /// A Roster API insert names only the columns every schema version has (tests fill
    /// databases at old versions through it).
    func insert(_ user: User, scim: SCIMUserWrite?) async throws -> Bool {
        var columns = "id, name, email, role, status, created_at, updated_at, name_key, email_key, json"
        var values: PostgresSQL = """
            \(user.id), \(user.name), \(user.email), \(user.role.rawValue), \(user.status.rawValue),
            \(Milliseconds.of(user.createdAt)), \(Milliseconds.of(user.updatedAt)), \(SortKey.of(user.name)),
            \(SortKey.of(user.email)), \(UserJSON.objectText(user))
            """
        if let scim {
            let document = PostgresSCIMDocument(scim.document)
            columns += ", user_name, user_name_key, scim, scim_json"
            values = "\(values), \(scim.userName), \(SortKey.of(scim.userName)), \(document.text), \(document.jsonText)::jsonb"
        }
        return try await !refusingTakenNames {
            try await run("INSERT INTO users (\(unescaped: columns)) VALUES (\(values)) ON CONFLICT (id) DO NOTHING RETURNING seq")
        }.isEmpty
    }

    func update(_ user: User, seq: Int64, scim: SCIMUserWrite?) async throws {
        var assignments: PostgresSQL = """
            name = \(user.name), email = \(user.email), role = \(user.role.rawValue), status = \(user.status.rawValue),
            updated_at = \(Milliseconds.of(user.updatedAt)), name_key = \(SortKey.of(user.name)),
            email_key = \(SortKey.of(user.email)), json = \(UserJSON.objectText(user)), revision = revision + 1
            """
        if let scim {
            let document = PostgresSCIMDocument(scim.document)
            assignments = """
                \(assignments), user_name = \(scim.userName), user_name_key = \(SortKey.of(scim.userName)),
                scim = \(document.text), scim_json = \(document.jsonText)::jsonb
                """
        }
        _ = try await refusingTakenNames { try await run("UPDATE users SET \(assignments) WHERE seq = \(seq)") }
    }

    /// Runs a write, turning the unique indexes' refusals of an email or userName into the store's.
    private func refusingTakenNames<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch let error as PSQLError {
            switch PostgresErrors.uniqueViolation(error) {
            case "users_email_key": throw StoreError.emailTaken
            case PostgresSchema.userNameIndex.name: throw StoreError.userNameTaken
            default: throw error
            }
        }
    }

    func followSCIMDocument(of user: User) async throws {
        let stored = try await run("SELECT scim FROM users WHERE id = \(user.id)").first.flatMap { try $0.decode(String?.self) }
        guard let document = SCIMDocumentColumn.read(stored) else { return }
        let followed = SCIMUserResource.following(document, user: user)
        guard followed != document else { return }
        let written = PostgresSCIMDocument(followed)
        _ = try await run("UPDATE users SET scim = \(written.text), scim_json = \(written.jsonText)::jsonb WHERE id = \(user.id)")
    }

    func deleteUser(seq: Int64) async throws {
        _ = try await run("DELETE FROM users WHERE seq = \(seq)")
    }

    func userID(seq: Int64) async throws -> String? {
        try await run("SELECT id FROM users WHERE seq = \(seq)").first.map { try $0.decode(String.self) }
    }

    func userSeqs(ofIDs ids: [String]) async throws -> [String: Int64] {
        try await PostgresUserRows.seqs(ofIDs: ids, on: connection, logger: logger)
    }

    func refreshJSON(userSeqs: [Int64]) async throws {
        for seq in userSeqs {
            guard var user = try await PostgresUserRows.fetch(seq: seq, on: connection, logger: logger) else { continue }
            user.groups = try await PostgresMemberships.groups(ofUserSeq: seq, on: connection, logger: logger)
            _ = try await run("UPDATE users SET json = \(UserJSON.objectText(user)), revision = revision + 1 WHERE seq = \(seq)")
        }
    }

    // MARK: Groups

    func group(id: String) async throws -> (seq: Int64, group: Group)? {
        try await PostgresGroupRows.fetchWithSeq(id: id, on: connection, logger: logger)
    }

    func group(seq: Int64) async throws -> Group? {
        try await PostgresGroupRows.fetch(seq: seq, on: connection, logger: logger)
    }

    func insert(_ group: Group) async throws -> Bool {
        try await !refusingTakenGroupName {
            try await run("""
                INSERT INTO groups (id, name, name_key, created_at, updated_at)
                VALUES (\(group.id), \(group.name), \(SortKey.of(group.name)),
                        \(Milliseconds.of(group.createdAt)), \(Milliseconds.of(group.updatedAt)))
                ON CONFLICT (id) DO NOTHING RETURNING seq
                """)
        }.isEmpty
    }

    func rename(groupSeq: Int64, to name: String, updatedAt: Date) async throws {
        _ = try await refusingTakenGroupName {
            try await run("""
                UPDATE groups SET name = \(name), name_key = \(SortKey.of(name)), updated_at = \(Milliseconds.of(updatedAt)),
                    revision = revision + 1
                WHERE seq = \(groupSeq)
                """)
        }
    }

    private func refusingTakenGroupName<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch let error as PSQLError where PostgresErrors.uniqueViolation(error) == "groups_name_key" {
            throw StoreError.groupNameTaken
        }
    }

    func deleteGroup(seq: Int64) async throws {
        _ = try await run("DELETE FROM groups WHERE seq = \(seq)")
    }

    func memberSeqs(ofGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try await PostgresMemberships.userSeqs(ofGroupSeq: groupSeq, on: connection, logger: logger)
    }

    func add(userSeqs: [Int64], toGroupSeq groupSeq: Int64) async throws -> [Int64] {
        guard !userSeqs.isEmpty else { return [] }
        return try await seqs("""
            INSERT INTO memberships (group_seq, user_seq) SELECT \(groupSeq), unnest(\(userSeqs)::bigint[])
            ON CONFLICT DO NOTHING RETURNING user_seq
            """)
    }

    func remove(userSeqs: [Int64], fromGroupSeq groupSeq: Int64) async throws -> [Int64] {
        guard !userSeqs.isEmpty else { return [] }
        return try await seqs("""
            DELETE FROM memberships WHERE group_seq = \(groupSeq) AND user_seq = ANY(\(userSeqs)) RETURNING user_seq
            """)
    }

    func touch(groupSeq: Int64, at now: Date) async throws {
        _ = try await run("""
            UPDATE groups SET updated_at = greatest(updated_at, \(Milliseconds.of(now))), revision = revision + 1 WHERE seq = \(groupSeq)
            """)
    }

    func setDocument(_ document: SCIMObject, ofGroupSeq groupSeq: Int64, updatedAt: Date?) async throws {
        let written = PostgresSCIMDocument(document)
        var assignments: PostgresSQL = "scim = \(written.text), scim_json = \(written.jsonText)::jsonb"
        if let updatedAt {
            assignments = "\(assignments), updated_at = greatest(updated_at, \(Milliseconds.of(updatedAt))), revision = revision + 1"
        }
        _ = try await run("UPDATE groups SET \(assignments) WHERE seq = \(groupSeq)")
    }

    // MARK: SCIM

    func scimUser(id: String) async throws -> SCIMUserRecord? {
        try await PostgresSCIMRows.user(id: id, on: connection, logger: logger)
    }

    func scimGroup(id: String) async throws -> SCIMGroupRecord? {
        try await PostgresSCIMRows.group(id: id, on: connection, logger: logger)
    }

    // MARK: Idempotency keys

    func appendAudit(_ entry: AuditEntry) async throws {
        _ = try await run("""
            INSERT INTO audit_log (at, token, client, request_id, via, resource, resource_id, action, changes)
            VALUES (\(Milliseconds.of(entry.at)), \(entry.token), \(entry.client), \(entry.requestID), \(entry.via),
                    \(entry.resource), \(entry.resourceID), \(entry.action), \(entry.changesJSON))
            """)
    }

    func deleteKeys(createdAtOrBefore milliseconds: Int64) async throws {
        _ = try await run("DELETE FROM idempotency_keys WHERE created_at <= \(milliseconds)")
    }

    func keyRecord(_ key: String, createdAfter milliseconds: Int64) async throws -> (body: Data, answer: IdempotentAnswer)? {
        try await PostgresKeyRecords.fetch(key, createdAfter: milliseconds, on: connection, logger: logger)
    }

    func insertKeyRecord(_ request: IdempotentRequest, answer: IdempotentAnswer, atMilliseconds milliseconds: Int64) async throws {
        _ = try await run("""
            INSERT INTO idempotency_keys (key, request_body, user_id, response, created_at)
            VALUES (\(request.key), \(ByteBuffer(bytes: request.body)), \(answer.resourceID),
                    \(String(decoding: answer.response, as: UTF8.self)), \(milliseconds))
            """)
    }
}
