import Foundation
import Logging
import PostgresNIO
import RosterKit

/// The user directory on PostgreSQL, for any number of roster-servers on one database. Every
/// write is one transaction that first bumps `roster_generation`, so writers take turns
/// across processes and every commit moves the generation the list caches key on.
final class PostgresStore: DirectoryStore, RowStore {
    let database: PostgresDatabase
    /// How long a list statement that may walk many rows may run before PostgreSQL cancels it
    /// (`statement_timeout`); the call then answers 503, as on SQLite (`SQLiteStore.queryBudget`).
    let queryBudget: Duration
    var logger: Logger { database.logger }
    /// Where pages begin and end, for lists walked in a sort's index; nil walks every page from
    /// the nearer end (for tests that compare).
    let pageMarks: PostgresPageMarks?
    /// Each sort's order of the whole list at one write generation (`envelopeByListOrder`);
    /// nil reads every list with SQL alone (for tests that compare).
    let listOrders: ListOrderCache?
    /// `generation()`'s reads, shared by callers that ask while one is under way.
    private let generationReads: SharedReads<UInt64>

    init(
        database: PostgresDatabase, queryBudget: Duration = QueryBudget.standard,
        keepsPageMarks: Bool = true, keepsListOrders: Bool = true
    ) {
        self.database = database
        self.queryBudget = queryBudget
        self.pageMarks = keepsPageMarks ? PostgresPageMarks() : nil
        self.listOrders = keepsListOrders ? ListOrderCache() : nil
        self.generationReads = SharedReads { try await Self.readGeneration(database) }
    }

    func generation() async throws -> UInt64 {
        try await generationReads.value()
    }

    /// Read committed, outside any transaction: it sees every commit before it started.
    private static func readGeneration(_ database: PostgresDatabase) async throws -> UInt64 {
        try await database.withConnection { connection in
            let rows = try await connection.query("SELECT value FROM roster_generation", logger: database.logger)
            var generation: Int64 = 0
            for try await value in rows.decode(Int64.self) { generation = value }
            return UInt64(generation)
        }
    }

    // MARK: Reads

    func listEnvelope(_ query: UserListQuery) async throws -> [UInt8] {
        try await readOnly { connection in
            if let envelope = try await self.envelopeByListOrder(query, on: connection) { return envelope }
            return try await self.listEnvelope(query, on: connection)
        }
    }

    func membersEnvelope(groupID: String, query: UserQuery) async throws -> [UInt8] {
        try await readOnly { connection in
            guard try await PostgresGroupRows.fetchWithSeq(id: groupID, on: connection, logger: self.logger) != nil else {
                throw StoreError.groupNotFound
            }
            return try await self.listEnvelope(UserListQuery(query, group: groupID), on: connection)
        }
    }

    private func listEnvelope(_ query: UserListQuery, on connection: PostgresConnection) async throws -> [UInt8] {
        let statements = PostgresListQuery(query)
        // The generation this snapshot is at, read in it first (the snapshot is taken by the
        // transaction's first statement): marks read and used in it are exactly its.
        var generation: UInt64?
        if statements.isLong, statements.marksKey != nil, pageMarks != nil {
            for try await value in try await connection.query("SELECT value FROM roster_generation", logger: logger).decode(Int64.self) {
                generation = UInt64(value)
            }
        }
        if statements.isLong {
            // Both statements that follow, and no other, may run for at most the budget each.
            try await connection.query(
                PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(Self.milliseconds(queryBudget))"), logger: logger)
        }
        var page = UserJSON.PageWriter(capacity: query.base.perPage)
        if statements.searchesKeys {
            var total: Int?
            for try await row in try await connection.query(statements.searchPage(), logger: logger) {
                let columns = row.makeRandomAccess()
                total = Int(try columns[0].decode(Int64.self))
                if let object = columns[1].bytes { page.append(object: object.readableBytesView) }
            }
            if total == nil {
                // A page past the end has no row to carry the total.
                for try await count in try await connection.query(statements.count, logger: logger).decode(Int64.self) {
                    total = Int(count)
                }
            }
            return page.finish(page: query.base.page, perPage: query.base.perPage, total: total ?? 0)
        }
        var total = 0
        for try await count in try await connection.query(statements.count, logger: logger).decode(Int64.self) {
            total = Int(count)
        }
        if statements.offset < total {
            var rows: [ByteBuffer] = []
            rows.reserveCapacity(statements.limit)
            if let generation, let pageMarks, let list = statements.marksKey {
                let sort = query.base.sort
                let count = min(statements.limit, total - statements.offset)
                let walk = PostgresPageMarks.walk(
                    offset: statements.offset, rows: count, total: total, marks: pageMarks.marks(for: list, at: generation))
                var marks: [Mark] = []
                for try await row in try await connection.query(
                    statements.seekPage(from: walk.mark, backward: walk.backward, skip: walk.skip, rows: count), logger: logger
                ) {
                    let columns = row.makeRandomAccess()
                    if let object = columns[0].bytes { rows.append(object) }
                    marks.append(try Self.mark(of: columns, sort: sort))
                }
                if walk.backward {
                    rows.reverse()
                    marks.reverse()
                }
                if let first = marks.first, let last = marks.last, marks.count == rows.count {
                    // One dictionary entry when the page has one row.
                    var edges = [statements.offset: first]
                    edges[statements.offset + marks.count - 1] = last
                    pageMarks.keep(edges, for: list, at: generation)
                }
            } else {
                for try await row in try await connection.query(statements.page(total: total), logger: logger) {
                    if let object = row.first?.bytes { rows.append(object) }
                }
                if statements.readsFromEnd(total: total) { rows.reverse() }
            }
            for object in rows { page.append(object: object.readableBytesView) }
        }
        return page.finish(page: query.base.page, perPage: query.base.perPage, total: total)
    }

    private typealias Mark = PostgresPageMarks.Mark

    /// The sort columns after the JSON of a `seekPage` row.
    private static func mark(of columns: PostgresRandomAccessRow, sort: UserSort) throws -> Mark {
        switch sort {
        case .email, .emailDescending:
            Mark(primary: .text(try columns[1].decode(String.self)), id: nil)
        case .createdAt, .createdAtDescending:
            Mark(primary: .integer(try columns[1].decode(Int64.self)), id: try columns[2].decode(String.self))
        case .name, .nameDescending, .directory:
            Mark(primary: .text(try columns[1].decode(String.self)), id: try columns[2].decode(String.self))
        }
    }

    /// A budget in whole milliseconds, at least one (0 would mean no timeout at all).
    static func milliseconds(_ budget: Duration) -> Int64 {
        max(1, budget.nanoseconds / 1_000_000)
    }

    func getEnvelope(id: String) async throws -> [UInt8] {
        guard PostgresErrors.isStorable(id) else { throw StoreError.notFound }
        let envelope = try await database.withConnection { [logger] connection in
            let rows = try await connection.query("SELECT json FROM users WHERE id = \(id)", logger: logger)
            var envelope: [UInt8]?
            for try await row in rows {
                if let object = row.first?.bytes { envelope = UserJSON.envelope(object: object.readableBytesView) }
            }
            return envelope
        }
        guard let envelope else { throw StoreError.notFound }
        return envelope
    }

    func isEmpty() async throws -> Bool {
        try await database.withConnection { [logger] connection in
            let rows = try await connection.query("SELECT NOT EXISTS (SELECT 1 FROM users)", logger: logger)
            var isEmpty = true
            for try await empty in rows.decode(Bool.self) { isEmpty = empty }
            return isEmpty
        }
    }

    // MARK: Transactions

    /// Every write goes through here: one transaction, which first takes the generation row
    /// (waiting for any other process's write to commit) and moves it. A refusal rolls back,
    /// generation and all.
    func write<T: Sendable>(
        deadline: Duration? = nil, _ updates: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await database.transaction(deadline: deadline) { connection in
            try await connection.query("UPDATE roster_generation SET value = value + 1", logger: self.logger)
            return try await updates(connection)
        }
    }

    /// The write rules' transactions (`RowStore`).
    func writeRows<T: Sendable>(_ body: @escaping @Sendable (PostgresRows) async throws -> T) async throws -> T {
        try await write { connection in try await body(PostgresRows(connection: connection, logger: self.logger)) }
    }

    /// Reads in one snapshot (a list's total and its page agree), on one connection, within
    /// `deadline` (the database's `workDeadline` unless given).
    func readOnly<T: Sendable>(
        deadline: Duration? = nil, _ reads: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await database.withConnection(deadline: deadline) { connection in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: self.logger)
            do {
                let result = try await reads(connection)
                try await connection.query("COMMIT", logger: self.logger)
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: self.logger)
                if let error = error as? PSQLError, PostgresErrors.isCancelledByTimeout(error) { throw StoreError.queryTooSlow }
                throw error
            }
        }
    }
}
