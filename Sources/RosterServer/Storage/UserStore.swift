import Foundation
import GRDB
import RosterKit

/// The user directory on SQLite. Drafts arrive validated and normalized; the store decides only
/// what the database must decide: whether the id exists and whether the email is free.
final class UserStore: Sendable {
    let pool: DatabasePool
    /// Where reads run; see `read(_:)`.
    private let readers: ReadConnections
    /// Moves after every write; see `write(_:)`.
    let writes = WriteGeneration()

    init(pool: DatabasePool) {
        self.pool = pool
        self.readers = ReadConnections(path: pool.path, configuration: pool.configuration)
    }

    convenience init(path: String) throws {
        self.init(pool: try UserDatabase.open(path: path))
    }

    /// A page of users, decoded from the stored JSON as a client would read it (for tests and
    /// tools; the API sends `listEnvelope`'s bytes).
    func list(_ query: UserQuery) async throws -> Page<User> {
        let envelope = try await listEnvelope(UserListQuery(query))
        let decoded = try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: Data(envelope))
        return decoded.data ?? Page(items: [], page: query.page, perPage: query.perPage, total: 0)
    }

    /// The API's answer to a list call: the envelope of the page, from the stored JSON of its users.
    func listEnvelope(_ query: UserListQuery) async throws -> [UInt8] {
        try read { db in try Self.listEnvelope(query, in: db) }
    }

    /// The members of a group, as a list call's envelope.
    /// - Throws: `StoreError.groupNotFound` when no group has that id.
    func membersEnvelope(groupID: String, query: UserQuery) async throws -> [UInt8] {
        try read { db in
            guard try GroupRow.fetchWithSeq(id: groupID, in: db) != nil else { throw StoreError.groupNotFound }
            return try Self.listEnvelope(UserListQuery(query, group: groupID), in: db)
        }
    }

    private static func listEnvelope(_ query: UserListQuery, in db: Database) throws -> [UInt8] {
        let plan = ListPlan(query, columns: "users.json")
        let total = try Int.fetchOne(db.cachedStatement(sql: plan.countSQL), arguments: plan.countArguments) ?? 0
        var page = UserJSON.PageWriter(capacity: plan.limit)
        if plan.offset < total {
            try StoredText.forEachRow(of: db.cachedStatement(sql: plan.pageSQL), arguments: plan.pageArguments) {
                page.append(object: $0)
            }
        }
        return page.finish(page: query.base.page, perPage: query.base.perPage, total: total)
    }

    /// The API's answer to a get call, from the user's stored JSON.
    func getEnvelope(id: String) async throws -> [UInt8] {
        let envelope = try read { db -> [UInt8]? in
            var envelope: [UInt8]?
            let statement = try db.cachedStatement(sql: "SELECT json FROM users WHERE id = ?")
            try StoredText.forEachRow(of: statement, arguments: [id]) { envelope = UserJSON.envelope(object: $0) }
            return envelope
        }
        guard let envelope else { throw StoreError.notFound }
        return envelope
    }

    func get(id: String) async throws -> User {
        let user = try read { db in try UserRow.fetch(id: id, in: db) }
        guard let user else { throw StoreError.notFound }
        return user
    }

    func create(_ draft: UserDraft, at now: Date) async throws -> User {
        let milliseconds = Milliseconds.of(now)
        return try await write { db in try Self.insertUser(draft, atMilliseconds: milliseconds, in: db) }
    }

    /// A create sent with an `Idempotency-Key`: the first answer to the key again when it was
    /// already used with the same body within its lifetime, otherwise a new user whose key record
    /// is written in the same transaction. Writes are serialized, so of creates racing with one
    /// key exactly one inserts and the others, once it commits, replay its answer.
    /// - Throws: `StoreError.idempotencyKeyReused` when the key came with another body.
    func create(_ draft: UserDraft, at now: Date, idempotency request: IdempotentRequest) async throws -> CreateResult {
        let milliseconds = Milliseconds.of(now)
        return try await write(changedUsers: { $0.isCreated }) { db in
            try IdempotencyRecord.purgeExpired(atMilliseconds: milliseconds, in: db)
            if let first = try IdempotencyRecord.answer(to: request, atMilliseconds: milliseconds, in: db) {
                return .replayed(first)
            }
            let user = try Self.insertUser(draft, atMilliseconds: milliseconds, in: db)
            try IdempotencyRecord.insert(
                request, answer: IdempotentAnswer(userID: user.id, response: UserJSON.envelope(user)),
                atMilliseconds: milliseconds, in: db)
            return .created(user)
        }
    }

    /// The first answer to a live key, read without waiting for the writer: a retry whose
    /// first attempt committed is answered here. Nil when the key is new or expired.
    /// - Throws: `StoreError.idempotencyKeyReused` when the key came with another body.
    func firstAnswer(to request: IdempotentRequest, at now: Date) async throws -> IdempotentAnswer? {
        let milliseconds = Milliseconds.of(now)
        return try read { db in try IdempotencyRecord.answer(to: request, atMilliseconds: milliseconds, in: db) }
    }

    private static func insertUser(_ draft: UserDraft, atMilliseconds milliseconds: Int64, in db: Database) throws -> User {
        let statement = try db.cachedStatement(sql: UserRow.insertSQL)
        // An id collision needs two creates in one millisecond drawing the same 40 random
        // bits; should it happen, draw again.
        while true {
            let user = User(
                id: UserID.make(milliseconds: milliseconds), name: draft.name, email: draft.email,
                role: draft.role ?? .member, status: draft.status ?? .active,
                createdAt: Milliseconds.date(milliseconds), updatedAt: Milliseconds.date(milliseconds))
            do {
                try statement.execute(arguments: UserRow.insertArguments(user))
                return user
            } catch {
                switch UserRow.uniqueViolation(error) {
                case .email, .userName: throw StoreError.emailTaken
                case .id: continue
                case nil: throw error
                }
            }
        }
    }

    func update(id: String, with draft: UserDraft, at now: Date) async throws -> User {
        try await write { db in
            guard var user = try UserRow.fetch(id: id, in: db) else { throw StoreError.notFound }
            user.name = draft.name
            user.email = draft.email
            user.role = draft.role ?? user.role
            user.status = draft.status ?? user.status
            user.updatedAt = Milliseconds.date(max(Milliseconds.of(now), Milliseconds.of(user.createdAt)))
            do {
                try db.cachedStatement(sql: UserRow.updateSQL).execute(arguments: UserRow.updateArguments(user))
            } catch let error where [.email, .userName].contains(UserRow.uniqueViolation(error)) {
                throw StoreError.emailTaken
            }
            try SCIMUserDocument.follow(user, in: db)
            return user
        }
    }

    /// Removes the user; their memberships go in the same transaction (ON DELETE CASCADE).
    func delete(id: String) async throws -> User {
        try await write { db in
            guard let user = try UserRow.fetch(id: id, in: db) else { throw StoreError.notFound }
            try db.cachedStatement(sql: "DELETE FROM users WHERE id = ?").execute(arguments: [id])
            return user
        }
    }

    func isEmpty() async throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM users)") ?? true
        }
    }

    /// Inserts users as given (ids, times and all) in one transaction: one fsync for the lot.
    func insertAll(_ users: [User]) async throws {
        try await write { db in
            let statement = try db.cachedStatement(sql: UserRow.insertSQL)
            for user in users {
                try statement.execute(arguments: UserRow.insertArguments(user))
            }
        }
    }

    /// Every read goes through here: it runs on the calling thread (`ReadConnections`). GRDB's
    /// async read hops to a queue that waits for a free reader, then to that reader's queue,
    /// then back; under wrk those thread switches cost more than the query (perf: a third of the
    /// time in the kernel, mostly futex waits). A read holds a cooperative thread for the
    /// query's length (well under a millisecond for a page) but never awaits and never waits
    /// for a connection, so it cannot starve the pool into a deadlock.
    ///
    /// The transaction is ours, from cached statements: a list reads the total and the page in
    /// one snapshot, as `pool.read` would, but GRDB's BEGIN and COMMIT are parsed anew each time
    /// (3% of a first page's time under wrk).
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try readers.withConnection { db in
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            do {
                let result = try value(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                return result
            } catch {
                if db.isInsideTransaction { try? db.rollback() }
                throw error
            }
        }
    }

    /// Every write goes through here, so the write generation moves after each one that may
    /// have changed a user. A refusal (`StoreError`) is thrown before anything is written and
    /// its transaction rolls back, so it leaves the generation (and cached answers) alone; any
    /// other failure might have come after the commit, so it counts as a write.
    /// - Parameter changedUsers: false for a result that wrote no user (a replayed create):
    ///   the cached lists are still the current answers.
    func write<T: Sendable>(
        changedUsers: (T) -> Bool = { _ in true }, _ updates: @Sendable @escaping (Database) throws -> T
    ) async throws -> T {
        do {
            let result = try await pool.write(updates)
            if changedUsers(result) { writes.advance() }
            return result
        } catch let refusal as StoreError {
            throw refusal
        } catch {
            writes.advance()
            throw error
        }
    }
}

/// What a create with an idempotency key did.
enum CreateResult: Sendable {
    /// A new user, and its key recorded.
    case created(User)
    /// The key's first answer, again; nothing was written.
    case replayed(IdempotentAnswer)

    var isCreated: Bool {
        if case .created = self { true } else { false }
    }
}
