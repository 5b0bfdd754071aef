import Logging
import PostgresNIO
import RosterKit

/// Deep pages and searches of the unfiltered list on PostgreSQL, placed by the sort's in-memory
/// `ListOrder`, as on SQLite (`SQLiteStore+ListOrder`): a deep page is its slice of `seq`s, a
/// page of a search is `memchr` over the order's packed keys (for the total of a search of three
/// characters or more too, see `memorySearchCandidateLimit`), and then the page's 50 rows are
/// read by `seq`. Without it the first visit of page 15,000
/// walked 250,000 index entries (45 to 175 ms at a million users), and the first page of
/// `q=an` 53,000 (20 to 30 ms); page marks (`PostgresPageMarks`) only help a page's neighbours.
///
/// The walk (a million index entries, some seconds over the wire) runs in the background and
/// no request waits for it. Every list reads the generation first, in its own snapshot, and an
/// order is used only by a snapshot at the generation it was walked in: a write by any replica
/// moves the generation, so the next list reads with SQL until the order is walked again.
extension PostgresStore {
    /// The list's envelope read with the order on `connection` (a read-only transaction that
    /// has run no statement yet), or nil when it is read as before.
    func envelopeByListOrder(_ query: UserListQuery, on connection: PostgresConnection) async throws -> [UInt8]? {
        guard let cache = listOrders, Self.usesListOrder(query) else { return nil }
        let sort = query.base.sort
        let generation = try await Self.generation(on: connection, logger: logger)
        let order: ListOrder
        switch cache.advice(for: sort, at: generation) {
        case .readWithout:
            return nil
        case .walk:
            walkInBackground(sort, at: generation, into: cache)
            return nil
        case .use(let known):
            order = known
        }
        let search = query.base.search.map(SortKey.of) ?? ""
        let trigramSearch = ListPlan.Shape.SearchKind(search) == .indexed
        if trigramSearch, (order.keys?.candidates(for: search) ?? .max) > Self.memorySearchCandidateLimit {
            return nil
        }

        // A few short statements, but a lock can hold any of them: the budget, as for SQL's plan.
        try await connection.query(
            PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(Self.milliseconds(queryBudget))"), logger: logger)
        let statements = PostgresListQuery(query)
        var total = 0
        if trigramSearch {
            // Every hit is counted in memory: `user_keys` would recheck each in the table.
            total = order.keys?.countMatches(of: search) ?? 0
        } else {
            for try await count in try await connection.query(statements.count, logger: logger).decode(Int64.self) {
                total = Int(count)
            }
        }
        let pageSeqs: [Int64]
        if search.isEmpty {
            pageSeqs = order.slice(offset: statements.offset, limit: statements.limit)
        } else {
            guard let seqs = order.searchPage(search, offset: statements.offset, limit: statements.limit, total: total) else {
                return nil
            }
            pageSeqs = seqs
        }

        var objects: [Int64: ByteBuffer] = [:]
        objects.reserveCapacity(pageSeqs.count)
        if !pageSeqs.isEmpty {
            for try await row in try await connection.query("SELECT seq, json FROM users WHERE seq = ANY(\(pageSeqs))", logger: logger) {
                let columns = row.makeRandomAccess()
                if let object = columns[1].bytes { objects[try columns[0].decode(Int64.self)] = object }
            }
        }
        var page = UserJSON.PageWriter(capacity: statements.limit)
        for seq in pageSeqs {
            // The order describes this very snapshot, so every row is there; if not, SQL decides.
            guard let object = objects[seq] else { return nil }
            page.append(object: object.readableBytesView)
        }
        return page.finish(page: query.base.page, perPage: query.base.perPage, total: total)
    }

    /// A trigram search is answered from the packed keys when their scan stops at no more
    /// places than this (the count of the pattern's rarest byte): at a million users `ivano`
    /// stops at some 300,000 `v`s, a few milliseconds, where `user_keys` rechecks every hit in
    /// the table (50 to 60 ms for 12,000 to 21,000 hits). A pattern of only common letters
    /// (some 3 million `a`s) is left to `user_keys`.
    static let memorySearchCandidateLimit = 1_500_000

    /// No filter; a page past the quick ones, or any search in a sort whose walk reads the keys.
    private static func usesListOrder(_ query: UserListQuery) -> Bool {
        let base = query.base
        guard query.group == nil, base.role == nil, base.status == nil else { return false }
        switch ListPlan.Shape.SearchKind(base.search.map(SortKey.of) ?? "") {
        case .everyone: return !ListPlan.isQuick(query)
        case .scanned, .indexed: return ListOrder.readsKeys(base.sort)
        case .matchesNoOne: return false
        }
    }

    /// How long a walk may run: a million rows over the wire take some seconds.
    static let listOrderWalkBudget = Duration.seconds(30)

    /// Walks the sort's index in a snapshot at `generation`, off the request path.
    private func walkInBackground(_ sort: UserSort, at generation: UInt64, into cache: ListOrderCache) {
        Task.detached { [self] in
            do {
                let order = try await readOnly(deadline: Self.listOrderWalkBudget + .seconds(15)) { connection -> ListOrder? in
                    // The snapshot is taken by this first statement: the walk is exactly its.
                    guard try await Self.generation(on: connection, logger: self.logger) == generation else { return nil }
                    // No request waits for the walk, but it holds a connection: not forever.
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(Self.milliseconds(Self.listOrderWalkBudget))"),
                        logger: self.logger)
                    return try await Self.walk(sort, on: connection, logger: self.logger)
                }
                if let order {
                    cache.store(order, for: sort, at: generation)
                } else {
                    cache.walkFailed(for: sort, at: generation)
                }
            } catch {
                cache.walkFailed(for: sort, at: generation)
            }
        }
    }

    /// Every user's `seq` in the sort's order, and their keys where `ListOrder.readsKeys`: an
    /// index-only walk of the sort's covering index (migration 5).
    static func walk(_ sort: UserSort, on connection: PostgresConnection, logger: Logger) async throws -> ListOrder {
        let readsKeys = ListOrder.readsKeys(sort)
        let columns = readsKeys ? "users.seq, users.name_key, users.email_key" : "users.seq"
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT \(columns) FROM users ORDER BY \(ListPlan.orderBy(sort))"), logger: logger)
        var seqs: [Int64] = []
        var keys = OrderedSearchKeys.Builder()
        for try await row in rows {
            let columns = row.makeRandomAccess()
            seqs.append(try columns[0].decode(Int64.self))
            if readsKeys {
                let name = columns[1].bytes ?? ByteBuffer(), email = columns[2].bytes ?? ByteBuffer()
                name.withUnsafeReadableBytes { name in
                    email.withUnsafeReadableBytes { email in keys.append(nameKey: name, emailKey: email) }
                }
            }
        }
        return ListOrder(seqs: seqs, keys: readsKeys ? keys.finish() : nil)
    }

    /// The generation as this transaction's snapshot sees it.
    static func generation(on connection: PostgresConnection, logger: Logger) async throws -> UInt64 {
        var generation: Int64 = 0
        for try await value in try await connection.query("SELECT value FROM roster_generation", logger: logger).decode(Int64.self) {
            generation = value
        }
        return UInt64(generation)
    }
}
