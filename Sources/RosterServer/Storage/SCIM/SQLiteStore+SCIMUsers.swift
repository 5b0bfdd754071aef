import Foundation
import GRDB
import RosterKit

/// SCIM's reads and writes of users, on the same rows, writer and write generation as the
/// Roster API (a SCIM write outdates the API's cached lists like any other write).
extension SQLiteStore {
    /// A page of users and `totalResults`.
    func scimUsers(_ query: SCIMListQuery) async throws -> (total: Int, records: [SCIMUserRecord]) {
        let plan = try SCIMListPlan(select: SCIMUserRecord.columns, columns: SCIMUserColumns(dialect: SQLiteSCIMDialect()), query: query)
        return try read { db in
            let total = try Int.fetchOne(
                db.cachedStatement(sql: plan.countSQL), arguments: SQLiteSCIMDialect.statementArguments(plan.countArguments)) ?? 0
            guard plan.limit > 0, plan.offset < total else { return (total, []) }
            let rows = try Self.pageRows(plan, matches: total, in: db)
            return (total, try rows.map { try SCIMUserRecord(row: $0).withGroups(in: db) })
        }
    }

    /// The page's rows: by walking the table in `seq` order when the counts say that finds
    /// them sooner (up to a bounded `seq`, else through the index after all), or through the
    /// filter's index.
    private static func pageRows(_ plan: SCIMListPlan, matches: Int, in db: Database) throws -> [Row] {
        let wanted = min(plan.limit, matches - plan.offset)
        if plan.walksTable, let span = try SeqSpan.of(users: db),
           let fraction = walkedFraction(matches: matches, users: span.count, through: plan.offset + plan.limit),
           let walk = plan.tableOrderPage(upToSeq: span.seq(atFraction: fraction)) {
            let rows = try Row.fetchAll(db.cachedStatement(sql: walk.sql), arguments: SQLiteSCIMDialect.statementArguments(walk.arguments))
            if rows.count == wanted { return rows }
        }
        return try Row.fetchAll(db.cachedStatement(sql: plan.pageSQL), arguments: SQLiteSCIMDialect.statementArguments(plan.pageArguments))
    }

    /// How much of the table, in `seq` order, a walk for a filtered page may read; nil when the
    /// filter's index is the better way. SQLite's planner always takes the index, then sorts
    /// every match: `userName sw "a" and active eq true` at a million users gathered 94,242
    /// matches to keep 50 (16 ms), where the table walk meets the 50 within some 530 rows
    /// (under 1 ms). Spread evenly, the page is met within `through / matches` of the table,
    /// each row read costing about three index entries; the walk may read four times that
    /// before it gives up (matches bunched late in `seq` order, say `meta.created gt` a
    /// recent date) and the index is taken after all.
    static func walkedFraction(matches: Int, users: Int, through: Int) -> Double? {
        guard matches > 0, users > 0 else { return nil }
        let expected = Double(through) / Double(matches)
        guard expected * Double(users) * 3 < Double(matches) else { return nil }
        return min(1, expected * 4)
    }

    /// The users' `seq` from first to last, and how many users there are.
    private struct SeqSpan {
        var first: Int64
        var last: Int64
        var count: Int

        static func of(users db: Database) throws -> SeqSpan? {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT (SELECT min(seq) FROM users), (SELECT max(seq) FROM users), (SELECT coalesce(sum(n), 0) FROM users_count)
                """)), let first: Int64 = row[0], let last: Int64 = row[1] else { return nil }
            return SeqSpan(first: first, last: last, count: row[2])
        }

        /// The `seq` that far through the span.
        func seq(atFraction fraction: Double) -> Int64 {
            first + Int64((Double(last - first + 1) * fraction).rounded(.up))
        }
    }

    func scimUser(id: String) async throws -> SCIMUserRecord {
        guard let record = try read({ db in try SCIMUserRecord.fetch(id: id, in: db) }) else { throw StoreError.notFound }
        return record
    }

    func createSCIMUser(_ write: SCIMUserWrite, at now: Date) async throws -> SCIMUserRecord {
        let milliseconds = Milliseconds.of(now)
        return try await self.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO users (id, name, email, role, status, created_at, updated_at, name_key, email_key, json,
                    user_name, user_name_key, scim)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            while true {
                let user = User(
                    id: UserID.make(milliseconds: milliseconds), name: write.name, email: write.email, role: write.role,
                    status: write.status, createdAt: Milliseconds.date(milliseconds), updatedAt: Milliseconds.date(milliseconds))
                do {
                    try statement.execute(arguments: UserRow.insertArguments(user) + [
                        write.userName, SortKey.of(write.userName), SCIMDocumentColumn.text(write.document),
                    ])
                    guard let record = try SCIMUserRecord.fetch(id: user.id, in: db) else { throw StoreError.notFound }
                    return record
                } catch {
                    switch UserRow.uniqueViolation(error) {
                    case .email: throw StoreError.emailTaken
                    case .userName: throw StoreError.userNameTaken
                    case .id: continue
                    case nil: throw error
                    }
                }
            }
        }
    }

    /// Reads the user, checks `If-Match`, and writes what `change` makes of them, in one
    /// transaction: a PUT or a PATCH never applies to a version it did not see.
    func modifySCIMUser(
        id: String, ifMatch: String?, at now: Date,
        change: @escaping @Sendable (SCIMUserRecord) throws -> SCIMUserWrite
    ) async throws -> SCIMUserRecord {
        let milliseconds = Milliseconds.of(now)
        return try await write { db in
            guard let current = try SCIMUserRecord.fetch(id: id, in: db) else { throw StoreError.notFound }
            try ETag.check(ifMatch: ifMatch, version: current.version)
            let write = try change(current)
            let user = write.applied(to: current.user, atMilliseconds: milliseconds)
            do {
                try db.cachedStatement(sql: """
                    UPDATE users SET name = ?, email = ?, role = ?, status = ?, updated_at = ?, name_key = ?, email_key = ?, json = ?,
                        user_name = ?, user_name_key = ?, scim = ?, revision = revision + 1
                    WHERE seq = ?
                    """).execute(arguments: [
                        user.name, user.email, user.role.rawValue, user.status.rawValue, Milliseconds.of(user.updatedAt),
                        SortKey.of(user.name), SortKey.of(user.email), UserJSON.objectText(user),
                        write.userName, SortKey.of(write.userName), SCIMDocumentColumn.text(write.document), current.seq,
                    ])
            } catch {
                switch UserRow.uniqueViolation(error) {
                case .email: throw StoreError.emailTaken
                case .userName: throw StoreError.userNameTaken
                default: throw error
                }
            }
            guard let record = try SCIMUserRecord.fetch(id: id, in: db) else { throw StoreError.notFound }
            return record
        }
    }

    /// Deletes the user if `If-Match` allows; memberships go with them.
    func deleteSCIMUser(id: String, ifMatch: String?) async throws {
        try await write { db in
            guard let current = try SCIMUserRecord.fetch(id: id, in: db) else { throw StoreError.notFound }
            try ETag.check(ifMatch: ifMatch, version: current.version)
            try db.cachedStatement(sql: "DELETE FROM users WHERE seq = ?").execute(arguments: [current.seq])
        }
    }
}

/// Keeps a user's SCIM document true to a Roster API edit of their name, email, role or status.
enum SCIMUserDocument {
    static func follow(_ user: User, in db: Database) throws {
        let select = try db.cachedStatement(sql: "SELECT scim FROM users WHERE id = ?")
        guard let text = try String.fetchOne(select, arguments: [user.id]), let document = SCIMDocumentColumn.read(text) else { return }
        let followed = SCIMUserResource.following(document, user: user)
        guard followed != document else { return }
        try db.cachedStatement(sql: "UPDATE users SET scim = ? WHERE id = ?").execute(arguments: [SCIMDocumentColumn.text(followed), user.id])
    }
}
