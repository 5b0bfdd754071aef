import GRDB
import RosterKit

/// Deep pages and trigram searches of the unfiltered list, placed by the sort's `ListOrder`.
extension UserStore {
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
            do {
                order = try await longRead { db in try ListOrder.walk(sort, in: db) }
            } catch {
                cache.walkFailed(for: sort, at: generation)
                if case StoreError.queryTooSlow = error { return nil }
                throw error
            }
            // The walk's snapshot is this generation's only if nothing committed since it was noted.
            guard try await self.generation() == generation else {
                cache.walkFailed(for: sort, at: generation)
                return nil
            }
            cache.store(order, for: sort, at: generation)
        }
        let envelope = try await longRead { db in try Self.listEnvelope(query, placedBy: order, in: db) }
        // A commit since the generation was noted may be in the page's snapshot, which the
        // order does not describe: then the list is read again as before.
        guard try await self.generation() == generation else { return nil }
        return envelope
    }

    /// No filter, and no search or one long enough for the trigram index.
    private static func usesListOrder(_ query: UserListQuery) -> Bool {
        let base = query.base
        guard query.group == nil, base.role == nil, base.status == nil else { return false }
        return [.everyone, .indexed].contains(ListPlan.Shape.SearchKind(base.search.map(SortKey.of) ?? ""))
    }

    /// The same envelope as `listEnvelope(_:in:)`: the total as its count statement reads it
    /// (the search index's hits, or `users_count`), the page's users looked up by rowid.
    private static func listEnvelope(_ query: UserListQuery, placedBy order: ListOrder, in db: Database) throws -> [UInt8] {
        let plan = ListPlan(query, columns: "users.json")
        let total: Int
        let pageSeqs: [Int64]
        if let search = query.base.search.map(SortKey.of), !search.isEmpty {
            let hits = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT rowid FROM users_search WHERE users_search MATCH ?"),
                arguments: [ListPlan.phrase(search)])
            total = hits.count
            pageSeqs = order.page(of: hits, offset: plan.offset, limit: plan.limit)
        } else {
            total = try Int.fetchOne(db.cachedStatement(sql: plan.countSQL), arguments: plan.countArguments) ?? 0
            let seqs = order.seqs
            pageSeqs = plan.offset < seqs.count ? Array(seqs[plan.offset..<min(seqs.count, plan.offset + plan.limit)]) : []
        }
        var page = UserJSON.PageWriter(capacity: plan.limit)
        let statement = try db.cachedStatement(sql: "SELECT json FROM users WHERE seq = ?")
        for seq in pageSeqs {
            try StoredText.forEachRow(of: statement, arguments: [seq]) { page.append(object: $0) }
        }
        return page.finish(page: query.base.page, perPage: query.base.perPage, total: total)
    }
}
