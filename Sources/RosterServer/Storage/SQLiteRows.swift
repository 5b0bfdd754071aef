import Foundation
import GRDB
import RosterKit

/// The rows of one SQLite write transaction (`SQLiteWriter`): the engine's SQL for the write
/// rules (`RowStore`), and nothing they decide. Each call runs its statements on the writer
/// connection, inside the transaction.
struct SQLiteRows: DirectoryRows {
    let transaction: SQLiteTransaction

    /// Runs `literal` as a cached statement.
    private static func execute(_ literal: SQL, in db: Database) throws {
        try db.cachedStatement(literal: literal).execute()
    }

    // MARK: Users

    func user(id: String) async throws -> (seq: Int64, user: User)? {
        try transaction.run { db in try UserRow.fetchWithSeq(id: id, in: db) }
    }

    func insert(_ user: User, scim: SCIMUserWrite?) async throws -> Bool {
        try transaction.run { db in
            var columns: SQL = "id, name, email, role, status, created_at, updated_at, name_key, email_key, json"
            var values: SQL = """
                \(user.id), \(user.name), \(user.email), \(user.role.rawValue), \(user.status.rawValue),
                \(Milliseconds.of(user.createdAt)), \(Milliseconds.of(user.updatedAt)), \(SortKey.of(user.name)),
                \(SortKey.of(user.email)), \(UserJSON.objectText(user))
                """
            if let scim {
                columns += ", user_name, user_name_key, scim"
                values += ", \(scim.userName), \(SortKey.of(scim.userName)), \(SCIMDocumentColumn.text(scim.document))"
            }
            do {
                try Self.refusingTakenNames { try Self.execute("INSERT INTO users (\(columns)) VALUES (\(values))", in: db) }
                return true
            } catch let error where UniqueIndex.of(error) == .userID {
                return false
            }
        }
    }

    func update(_ user: User, seq: Int64, scim: SCIMUserWrite?) async throws {
        try transaction.run { db in
            var assignments: SQL = """
                name = \(user.name), email = \(user.email), role = \(user.role.rawValue), status = \(user.status.rawValue),
                updated_at = \(Milliseconds.of(user.updatedAt)), name_key = \(SortKey.of(user.name)),
                email_key = \(SortKey.of(user.email)), json = \(UserJSON.objectText(user)), revision = revision + 1
                """
            if let scim {
                assignments += """
                    , user_name = \(scim.userName), user_name_key = \(SortKey.of(scim.userName)),
                    scim = \(SCIMDocumentColumn.text(scim.document))
                    """
            }
            try Self.refusingTakenNames { try Self.execute("UPDATE users SET \(assignments) WHERE seq = \(seq)", in: db) }
        }
    }

    /// Runs a write, turning the unique indexes' refusals of an email or userName into the store's.
    private static func refusingTakenNames(_ write: () throws -> Void) throws {
        do {
            try write()
        } catch {
            switch UniqueIndex.of(error) {
            case .email: throw StoreError.emailTaken
            case .userName: throw StoreError.userNameTaken
            default: throw error
            }
        }
    }

    func followSCIMDocument(of user: User) async throws {
        try transaction.run { db in
            guard let text = try String.fetchOne(db.cachedStatement(literal: "SELECT scim FROM users WHERE id = \(user.id)")),
                  let document = SCIMDocumentColumn.read(text) else { return }
            let followed = SCIMUserResource.following(document, user: user)
            guard followed != document else { return }
            try Self.execute("UPDATE users SET scim = \(SCIMDocumentColumn.text(followed)) WHERE id = \(user.id)", in: db)
        }
    }

    func deleteUser(seq: Int64) async throws {
        try transaction.run { db in try Self.execute("DELETE FROM users WHERE seq = \(seq)", in: db) }
    }

    func userID(seq: Int64) async throws -> String? {
        try transaction.run { db in try String.fetchOne(db.cachedStatement(literal: "SELECT id FROM users WHERE seq = \(seq)")) }
    }

    func userSeqs(ofIDs ids: [String]) async throws -> [String: Int64] {
        try transaction.run { db in
            var seqs: [String: Int64] = [:]
            for id in ids where seqs[id] == nil {
                if let seq = try UserRow.seq(id: id, in: db) { seqs[id] = seq }
            }
            return seqs
        }
    }

    func refreshJSON(userSeqs: [Int64]) async throws {
        try transaction.run { db in
            // Prepared once for what may be every member of a large group.
            let select = try db.cachedStatement(sql: "SELECT \(UserRow.columns) FROM users WHERE seq = ?")
            let update = try db.cachedStatement(sql: "UPDATE users SET json = ?, revision = revision + 1 WHERE seq = ?")
            for seq in userSeqs {
                guard var user = try Row.fetchOne(select, arguments: [seq]).map(UserRow.user(from:)) else { continue }
                user.groups = try Memberships.groups(ofUserSeq: seq, in: db)
                try update.execute(arguments: [UserJSON.objectText(user), seq])
            }
        }
    }

    // MARK: Groups

    func group(id: String) async throws -> (seq: Int64, group: Group)? {
        try transaction.run { db in try GroupRow.fetchWithSeq(id: id, in: db) }
    }

    func group(seq: Int64) async throws -> Group? {
        try transaction.run { db in try GroupRow.fetch(seq: seq, in: db) }
    }

    func insert(_ group: Group) async throws -> Bool {
        try transaction.run { db in
            do {
                try Self.execute("""
                    INSERT INTO groups (id, name, name_key, created_at, updated_at)
                    VALUES (\(group.id), \(group.name), \(SortKey.of(group.name)),
                            \(Milliseconds.of(group.createdAt)), \(Milliseconds.of(group.updatedAt)))
                    """, in: db)
                return true
            } catch {
                switch UniqueIndex.of(error) {
                case .groupName: throw StoreError.groupNameTaken
                case .groupID: return false
                default: throw error
                }
            }
        }
    }

    func rename(groupSeq: Int64, to name: String, updatedAt: Date) async throws {
        try transaction.run { db in
            do {
                try Self.execute("""
                    UPDATE groups SET name = \(name), name_key = \(SortKey.of(name)), updated_at = \(Milliseconds.of(updatedAt)),
                        revision = revision + 1
                    WHERE seq = \(groupSeq)
                    """, in: db)
            } catch let error where UniqueIndex.of(error) == .groupName {
                throw StoreError.groupNameTaken
            }
        }
    }

    /// Its memberships go with it (ON DELETE CASCADE): as many rows as it has members.
    func deleteGroup(seq: Int64) async throws {
        try transaction.run { db in try Self.execute("DELETE FROM groups WHERE seq = \(seq)", in: db) }
    }

    func memberSeqs(ofGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try transaction.run { db in try Memberships.userSeqs(ofGroupSeq: groupSeq, in: db) }
    }

    func add(userSeqs: [Int64], toGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try transaction.run { db in
            try userSeqs.filter { userSeq in
                try Self.execute("INSERT OR IGNORE INTO memberships (group_seq, user_seq) VALUES (\(groupSeq), \(userSeq))", in: db)
                return db.changesCount > 0 // this statement's own rows, not the count trigger's
            }
        }
    }

    func remove(userSeqs: [Int64], fromGroupSeq groupSeq: Int64) async throws -> [Int64] {
        try transaction.run { db in
            try userSeqs.filter { userSeq in
                try Self.execute("DELETE FROM memberships WHERE group_seq = \(groupSeq) AND user_seq = \(userSeq)", in: db)
                return db.changesCount > 0
            }
        }
    }

    func touch(groupSeq: Int64, at now: Date) async throws {
        try transaction.run { db in
            try Self.execute("""
                UPDATE groups SET updated_at = max(updated_at, \(Milliseconds.of(now))), revision = revision + 1 WHERE seq = \(groupSeq)
                """, in: db)
        }
    }

    func setDocument(_ document: SCIMObject, ofGroupSeq groupSeq: Int64, updatedAt: Date?) async throws {
        try transaction.run { db in
            var assignments: SQL = "scim = \(SCIMDocumentColumn.text(document))"
            if let updatedAt {
                assignments += ", updated_at = max(updated_at, \(Milliseconds.of(updatedAt))), revision = revision + 1"
            }
            try Self.execute("UPDATE groups SET \(assignments) WHERE seq = \(groupSeq)", in: db)
        }
    }

    // MARK: SCIM

    func scimUser(id: String) async throws -> SCIMUserRecord? {
        try transaction.run { db in try SCIMUserRecord.fetch(id: id, in: db) }
    }

    func scimGroup(id: String) async throws -> SCIMGroupRecord? {
        try transaction.run { db in try SCIMGroupRecord.fetch(id: id, in: db) }
    }

    // MARK: Idempotency keys

    func appendAudit(_ entry: AuditEntry) async throws {
        try transaction.run { db in
            try Self.execute("""
                INSERT INTO audit_log (at, token, client, request_id, via, resource, resource_id, action, changes)
                VALUES (\(Milliseconds.of(entry.at)), \(entry.token), \(entry.client), \(entry.requestID), \(entry.via),
                        \(entry.resource), \(entry.resourceID), \(entry.action), \(entry.changesJSON))
                """, in: db)
        }
    }

    func deleteKeys(createdAtOrBefore milliseconds: Int64) async throws {
        try transaction.run { db in try Self.execute("DELETE FROM idempotency_keys WHERE created_at <= \(milliseconds)", in: db) }
    }

    func keyRecord(_ key: String, createdAfter milliseconds: Int64) async throws -> (body: Data, answer: IdempotentAnswer)? {
        try transaction.run { db in try IdempotencyRecord.fetch(key, createdAfter: milliseconds, in: db) }
    }

    func insertKeyRecord(_ request: IdempotentRequest, answer: IdempotentAnswer, atMilliseconds milliseconds: Int64) async throws {
        try transaction.run { db in
            try Self.execute("""
                INSERT INTO idempotency_keys (key, request_body, user_id, response, created_at)
                VALUES (\(request.key), \(request.body), \(answer.resourceID),
                        \(String(decoding: answer.response, as: UTF8.self)), \(milliseconds))
                """, in: db)
        }
    }
}

/// Which of SQLite's unique indexes refused a write, read from its error.
enum UniqueIndex {
    case userID, email, userName, groupID, groupName

    static func of(_ error: any Error) -> UniqueIndex? {
        guard let error = error as? DatabaseError, error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE else { return nil }
        let message = error.message ?? ""
        if message.contains("users.email_key") { return .email }
        if message.contains("users.id") { return .userID }
        // The folded userName-or-email index (Schema v4): for a Roster API write, the email is someone's userName.
        if message.contains("users_user_name") { return .userName }
        if message.contains("groups.name_key") { return .groupName }
        if message.contains("groups.id") { return .groupID }
        return nil
    }
}
