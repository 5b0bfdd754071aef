import Foundation
import GRDB
import NIOPosix
import RosterKit

/// The user directory on SQLite: its reads here, its writes the rules of `RowStore` over its
/// rows (`SQLiteRows`).
final class SQLiteStore: Sendable {
    let pool: DatabasePool
    /// Where writes run; see `write(_:)` and `writeRows(_:)`.
    private let writer: SQLiteWriter
    /// Where reads run; see `read(_:)`.
    private let readers: ReadConnections
    /// Moves after every commit to the file, by any process; see `generation()`.
    private let generations: DatabaseGeneration

    /// Each sort's order of the whole list, for deep pages and trigram searches
    /// (`envelopeByListOrder`); nil reads every list with SQL alone.
    let listOrders: ListOrderCache?

    /// How long a long read (`longRead`) may run before it is stopped.
    let queryBudget: Duration

    /// - Parameter keepsListOrders: false reads every list with SQL alone (for tests that compare).
    init(pool: DatabasePool, queryBudget: Duration = QueryBudget.standard, keepsListOrders: Bool = true) {
        self.pool = pool
        self.writer = SQLiteWriter(pool: pool)
        self.queryBudget = queryBudget
        self.listOrders = keepsListOrders ? ListOrderCache() : nil
        self.readers = ReadConnections(path: pool.path, configuration: pool.configuration)
        self.generations = DatabaseGeneration(path: pool.path, configuration: pool.configuration)
    }

    convenience init(path: String, queryBudget: Duration = QueryBudget.standard, keepsListOrders: Bool = true) throws {
        self.init(pool: try SQLiteDatabase.open(path: path), queryBudget: queryBudget, keepsListOrders: keepsListOrders)
    }

    /// The database's write generation: it moves after every write that committed, whichever
    /// process made it, and a call that starts after a commit returned sees the move. A reader
    /// that notes it before reading and finds it unchanged afterwards knows no write committed
    /// in between, which is what lets `ListResponseCache` keep answers without ever serving
    /// one a write has outdated, even with other servers writing to the same file.
    func generation() async throws -> UInt64 {
        try generations.current()
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
        guard ListPlan.isQuick(query) else {
            if let envelope = try await envelopeByListOrder(query) { return envelope }
            return try await longRead { db in try Self.listEnvelope(query, in: db) }
        }
        return try read { db in try Self.listEnvelope(query, in: db) }
    }

    /// The members of a group, as a list call's envelope.
    /// - Throws: `StoreError.groupNotFound` when no group has that id.
    func membersEnvelope(groupID: String, query: UserQuery) async throws -> [UInt8] {
        try await longRead { db in
            guard try GroupRow.fetchWithSeq(id: groupID, in: db) != nil else { throw StoreError.groupNotFound }
            return try Self.listEnvelope(UserListQuery(query, group: groupID), in: db)
        }
    }

    private static func listEnvelope(_ query: UserListQuery, in db: Database) throws -> [UInt8] {
        let plan = ListPlan(query, columns: "users.json")
        let total = try Int.fetchOne(db.cachedStatement(sql: plan.countSQL), arguments: plan.countArguments) ?? 0
        var page = UserJSON.PageWriter(capacity: plan.limit)
        if plan.readsFromEnd(total: total) {
            var rows: [[UInt8]] = []
            rows.reserveCapacity(plan.limit)
            try StoredText.forEachRow(of: db.cachedStatement(sql: plan.reversedPageSQL), arguments: plan.reversedPageArguments(total: total)) {
                rows.append(Array($0))
            }
            for row in rows.reversed() { page.append(object: row) }
        } else if plan.offset < total {
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

    /// The first answer to a live key, read without waiting for the writer: a retry whose
    /// first attempt committed is answered here. Nil when the key is new or expired.
    /// - Throws: `StoreError.idempotencyKeyReused` when the key came with another body.
    func firstAnswer(to request: IdempotentRequest, at now: Date) async throws -> IdempotentAnswer? {
        let milliseconds = Milliseconds.of(now)
        return try read { db in
            try KeyedCreate.answer(
                to: request, from: IdempotencyRecord.fetch(request.key, createdAfter: milliseconds - IdempotentRequest.lifetime, in: db))
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

    /// Inserts many new users (ids, times and all) and groups of them in one transaction,
    /// building the indexes once at the end instead of row by row (`BulkLoad`): for seeding.
    func bulkInsert(_ directory: BulkDirectory) async throws {
        try await write { db in try BulkLoad.insert(directory, in: db) }
    }

    /// Every quick read goes through here: it runs on the calling thread (`ReadConnections`).
    /// GRDB's async read hops to a queue that waits for a free reader, then to that reader's
    /// queue, then back; under wrk those thread switches cost more than the query (perf: a third
    /// of the time in the kernel, mostly futex waits). So a read that is known to be short (a key
    /// lookup, a first page) holds a cooperative thread for well under a millisecond, never
    /// awaits and never waits for a connection, so it cannot starve the pool into a deadlock.
    /// Anything that may walk many rows goes through `longRead` instead.
    ///
    /// The transaction is ours, from cached statements: a list reads the total and the page in
    /// one snapshot, as `pool.read` would, but GRDB's BEGIN and COMMIT are parsed anew each time
    /// (3% of a first page's time under wrk).
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try read(budget: nil, value)
    }

    /// A read that may walk many rows (a short search, a deep page, a count over a group): on
    /// a thread of NIO's blocking pool, so the cooperative threads stay free for quick calls
    /// (`/health`, gets, first pages), and stopped once it has run for `budget` (`queryBudget` unless told).
    /// - Throws: `StoreError.queryTooSlow` when the budget ran out.
    func longRead<T: Sendable>(
        budget: Duration? = nil, _ value: @Sendable @escaping (Database) throws -> T
    ) async throws -> T {
        let budget = budget ?? queryBudget
        return try await NIOThreadPool.singleton.runIfActive { try self.read(budget: budget, value) }
    }

    private func read<T>(budget: Duration?, _ value: (Database) throws -> T) throws -> T {
        try readers.withConnection { db, deadline in
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            if let budget { deadline.set(after: budget) }
            do {
                let result = try value(db)
                deadline.clear()
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                return result
            } catch {
                deadline.clear()
                if db.isInsideTransaction { try? db.rollback() }
                if QueryDeadline.isInterruption(error) { throw StoreError.queryTooSlow }
                throw error
            }
        }
    }

    /// A write of one synchronous closure, in one transaction on the pool's writer, in its turn
    /// (`SQLiteWriter`). Once it commits, `generation()` has moved in every process; a refusal
    /// rolls back and moves nothing.
    func write<T: Sendable>(_ updates: @Sendable @escaping (Database) throws -> T) async throws -> T {
        try await writer.write(updates)
    }

    /// The write rules' transactions (`RowStore`).
    func writeRows<T: Sendable>(_ body: @escaping @Sendable (SQLiteRows) async throws -> T) async throws -> T {
        try await writer.transaction { transaction in try await body(SQLiteRows(transaction: transaction)) }
    }
}
