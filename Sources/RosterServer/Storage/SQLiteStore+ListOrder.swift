import GRDB
import RosterKit

/// Deep pages and trigram searches of the unfiltered list, placed by the sort's `ListOrder`.
extension SQLiteStore {
    /// The list's envelope, or nil when it is read as before: a filtered list, a short search,
    /// or no `ListOrder` for the current write generation yet.
    func envelopeByListOrder(_ query: UserListQuery) async throws -> [UInt8]? {
        guard let cache = listOrders, Self.usesListOrder(query) else { return nil }
        let sort = query.base.sort
        let generation = try await generation()
        let order: ListOrder
        switch cache.advice(for: sort, at: generation) {
        case .readWithout:
            return nil
        case .use(let known):
            order = known
        case .walk:
            walkInBackground(sort, at: generation, into: cache)
            return nil
        }
        let envelope = try await longRead { db in try Self.listEnvelope(query, placedBy: order, in: db) }
        // A commit since the generation was noted may be in the page's snapshot, which the
        // order does not describe: then the list is read again as before.
        guard try await self.generation() == generation else { return nil }
        return envelope
    }

    /// How long a walk of a sort's index may run: longer than a request's budget, since no
    /// request waits for it (about 2 s at a million users with the search keys).
    static let listOrderWalkBudget = Duration.seconds(15)

    /// Walks the sort's index off the request path: the list that asked reads as before, and
    /// the lists after the walk use the order. A request that waited for the walk paid its
    /// 120 ms (at a million users) on top of its own query, and a walk slowed past a
    /// request's budget by a busy machine left the order unused for the whole generation.
    private func walkInBackground(_ sort: UserSort, at generation: UInt64, into cache: ListOrderCache) {
        Task.detached { [self] in
            do {
                let order = try await longRead(budget: Self.listOrderWalkBudget) { db in try ListOrder.walk(sort, in: db) }
                // The walk's snapshot is this generation's only if nothing committed since it was noted.
                guard try await self.generation() == generation else {
                    cache.walkFailed(for: sort, at: generation)
                    return
                }
                cache.store(order, for: sort, at: generation)
            } catch {
                cache.walkFailed(for: sort, at: generation)
            }
        }
    }

    /// No filter, and no search, a search long enough for the trigram index, or a shorter one
    /// in a sort whose walk reads the search keys.
    private static func usesListOrder(_ query: UserListQuery) -> Bool {
        let base = query.base
        guard query.group == nil, base.role == nil, base.status == nil else { return false }
        switch ListPlan.Shape.SearchKind(base.search.map(SortKey.of) ?? "") {
        case .everyone, .indexed: return true
        case .scanned: return ListOrder.readsKeys(base.sort)
        case .matchesNoOne: return false
        }
    }

    /// The same envelope as `listEnvelope(_:in:)`: the total as its count statement reads it
    /// (the search index's hits, `users_short_count` or `users_count`), the page's users looked
    /// up by rowid.
    private static func listEnvelope(_ query: UserListQuery, placedBy order: ListOrder, in db: Database) throws -> [UInt8] {
        let plan = ListPlan(query, columns: "users.json")
        let total: Int
        let pageSeqs: [Int64]
        let search = query.base.search.map(SortKey.of) ?? ""
        switch ListPlan.Shape.SearchKind(search) {
        case .indexed:
            let hits = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT rowid FROM users_search WHERE users_search MATCH ?"),
                arguments: [ListPlan.phrase(search)])
            total = hits.count
            pageSeqs = order.page(of: hits, offset: plan.offset, limit: plan.limit)
        case .scanned:
            // The total from the per-gram counts, in this snapshot: the order's (see the caller).
            total = try Int.fetchOne(db.cachedStatement(sql: plan.countSQL), arguments: plan.countArguments) ?? 0
            guard let seqs = order.searchPage(search, offset: plan.offset, limit: plan.limit, total: total) else {
                throw ListOrderError.noSearchKeys
            }
            pageSeqs = seqs
        case .everyone, .matchesNoOne:
            total = try Int.fetchOne(db.cachedStatement(sql: plan.countSQL), arguments: plan.countArguments) ?? 0
            pageSeqs = order.slice(offset: plan.offset, limit: plan.limit)
        }
        var page = UserJSON.PageWriter(capacity: plan.limit)
        let statement = try db.cachedStatement(sql: "SELECT json FROM users WHERE seq = ?")
        for seq in pageSeqs {
            try StoredText.forEachRow(of: statement, arguments: [seq]) { page.append(object: $0) }
        }
        return page.finish(page: query.base.page, perPage: query.base.perPage, total: total)
    }
}

/// A list placed by an order that cannot place it: a bug, answered as a 500.
enum ListOrderError: Error {
    case noSearchKeys
}
