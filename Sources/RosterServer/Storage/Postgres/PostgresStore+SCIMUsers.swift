import Foundation
import Logging
import PostgresNIO
import RosterKit

/// SCIM's reads and writes of users on PostgreSQL, on the same rows, transactions and write
/// generation as the Roster API (a SCIM write outdates every replica's cached lists).
extension PostgresStore: SCIMStore {
    func scimUsers(_ query: SCIMListQuery) async throws -> (total: Int, records: [SCIMUserRecord]) {
        let plan = try SCIMListPlan(select: SCIMUserRecord.columns, columns: SCIMUserColumns(dialect: PostgresSCIMDialect()), query: query)
        return try await readOnly { connection in
            let total = try await PostgresSCIMRows.count(plan, on: connection, logger: self.logger)
            guard plan.limit > 0, plan.offset < total else { return (total, []) }
            let page = PostgresSCIMDialect.query(plan.pageSQL, plan.pageArguments)
            return (total, try await PostgresSCIMRows.users(page, on: connection, logger: self.logger))
        }
    }

    func scimUser(id: String) async throws -> SCIMUserRecord {
        let record = try await readOnly { connection in
            try await PostgresSCIMRows.user(id: id, on: connection, logger: self.logger)
        }
        guard let record else { throw StoreError.notFound }
        return record
    }

    func createSCIMUser(_ write: SCIMUserWrite, at now: Date) async throws -> SCIMUserRecord {
        let milliseconds = Milliseconds.of(now)
        let document = PostgresSCIMDocument(write.document)
        return try await self.write { connection in
            // An id collision (two creates in one millisecond drawing the same 40 random bits) draws again.
            while true {
                let user = User(
                    id: UserID.make(milliseconds: milliseconds), name: write.name, email: write.email, role: write.role,
                    status: write.status, createdAt: Milliseconds.date(milliseconds), updatedAt: Milliseconds.date(milliseconds))
                let inserted = try await Self.refusingTakenNames {
                    try await connection.query("""
                        INSERT INTO users (id, name, email, role, status, created_at, updated_at, name_key, email_key, json,
                            user_name, user_name_key, scim, scim_json)
                        VALUES (\(user.id), \(user.name), \(user.email), \(user.role.rawValue), \(user.status.rawValue),
                            \(milliseconds), \(milliseconds), \(SortKey.of(user.name)), \(SortKey.of(user.email)),
                            \(UserJSON.objectText(user)), \(write.userName), \(SortKey.of(write.userName)),
                            \(document.text), \(document.jsonText)::jsonb)
                        ON CONFLICT (id) DO NOTHING RETURNING seq
                        """, logger: self.logger).collect()
                }
                guard !inserted.isEmpty else { continue }
                guard let record = try await PostgresSCIMRows.user(id: user.id, on: connection, logger: self.logger) else {
                    throw StoreError.notFound
                }
                return record
            }
        }
    }

    func modifySCIMUser(
        id: String, ifMatch: String?, at now: Date,
        change: @escaping @Sendable (SCIMUserRecord) throws -> SCIMUserWrite
    ) async throws -> SCIMUserRecord {
        let milliseconds = Milliseconds.of(now)
        return try await write { connection in
            guard let current = try await PostgresSCIMRows.user(id: id, on: connection, logger: self.logger) else {
                throw StoreError.notFound
            }
            try ETag.check(ifMatch: ifMatch, version: current.version)
            let write = try change(current)
            let user = write.applied(to: current.user, atMilliseconds: milliseconds)
            let document = PostgresSCIMDocument(write.document)
            _ = try await Self.refusingTakenNames {
                try await connection.query("""
                    UPDATE users SET name = \(user.name), email = \(user.email), role = \(user.role.rawValue),
                        status = \(user.status.rawValue), updated_at = \(Milliseconds.of(user.updatedAt)),
                        name_key = \(SortKey.of(user.name)), email_key = \(SortKey.of(user.email)),
                        json = \(UserJSON.objectText(user)), user_name = \(write.userName),
                        user_name_key = \(SortKey.of(write.userName)), scim = \(document.text),
                        scim_json = \(document.jsonText)::jsonb, revision = revision + 1
                    WHERE seq = \(current.seq)
                    """, logger: self.logger).collect()
            }
            guard let record = try await PostgresSCIMRows.user(id: id, on: connection, logger: self.logger) else {
                throw StoreError.notFound
            }
            return record
        }
    }

    func deleteSCIMUser(id: String, ifMatch: String?) async throws {
        try await write { connection in
            guard let current = try await PostgresSCIMRows.user(id: id, on: connection, logger: self.logger) else {
                throw StoreError.notFound
            }
            try ETag.check(ifMatch: ifMatch, version: current.version)
            try await connection.query("DELETE FROM users WHERE seq = \(current.seq)", logger: self.logger)
        }
    }

    /// Runs a SCIM write, turning the unique indexes' refusals into the store's.
    private static func refusingTakenNames<T>(_ write: () async throws -> T) async throws -> T {
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
}

/// Keeps a user's SCIM document true to a Roster API edit of their name, email, role or
/// status, in the edit's transaction (as `SCIMUserDocument` does on SQLite).
enum PostgresSCIMUserDocument {
    static func follow(_ user: User, on connection: PostgresConnection, logger: Logger) async throws {
        var stored: String?
        for try await text in try await connection.query("SELECT scim FROM users WHERE id = \(user.id)", logger: logger).decode(String?.self) {
            stored = text
        }
        guard let document = SCIMDocumentColumn.read(stored) else { return }
        let followed = SCIMUserResource.following(document, user: user)
        guard followed != document else { return }
        let written = PostgresSCIMDocument(followed)
        try await connection.query(
            "UPDATE users SET scim = \(written.text), scim_json = \(written.jsonText)::jsonb WHERE id = \(user.id)", logger: logger)
    }
}
