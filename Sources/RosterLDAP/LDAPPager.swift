import RosterKit
import Foundation

/// Roster's numbered pages over LDAP's simple paged results (RFC 2696), whose cookies only go
/// forward: the next page continues the connection's last cookie; any other page starts the
/// search again and skips to it. Runs on the session's thread.
enum LDAPPager {
    struct Slice<Item: Sendable>: Sendable {
        var entries: [Item]
        var hasMore: Bool
        /// The server's estimate of the whole result (0 when it gives none).
        var estimatedTotal: Int
    }

    /// What the size in a paged results response counts. RFC 2696 says the whole result (Active
    /// Directory and Samba send that); OpenLDAP's sort overlay (sssvlv) sends the entries still
    /// to come after the page, so 250 after the first 50 of 300.
    enum Estimate: Sendable {
        case total
        case remaining

        init(vendor: LDAPRootDSE.Vendor) {
            self = vendor == .openLDAP ? .remaining : .total
        }

        /// The whole result, from the server's figure and the entries read up to the page's end.
        func total(_ figure: Int, readThrough end: Int) -> Int {
            guard figure > 0 else { return 0 }
            switch self {
            case .total: return figure
            case .remaining: return end + figure
            }
        }
    }

    /// The page's entries, each made into an `Item` by `read` as it comes (`LDAPConnection.search`).
    static func page<Item: Sendable>(
        _ connection: LDAPConnection, base: String, filter: String, attributes: [String], sortKey: String?,
        offset: Int, size: Int, paging: Bool, estimate meaning: Estimate, cancel: CancelFlag,
        reading read: (LDAPEntry) -> Item
    ) throws -> Slice<Item> {
        guard paging else {
            // No paging control: one search of everything up to this page, sliced here.
            let all = try connection.search(base: base, scope: .subtree, filter: filter, attributes: attributes,
                                            sortKeys: sortKey, cancel: cancel).entries
            let slice = all.dropFirst(offset).prefix(size).map(read)
            return Slice(entries: slice, hasMore: all.count > offset + size, estimatedTotal: all.count)
        }
        let key = [base, filter, sortKey ?? "", attributes.joined(separator: ","), String(size)].joined(separator: "\u{1}")
        var cookie = Data()
        var position = 0
        if let cursor = connection.pagedCursor {
            if cursor.key == key, cursor.nextOffset <= offset {
                cookie = cursor.cookie
                position = cursor.nextOffset
            } else {
                // Servers keep an unfinished paged search (OpenLDAP's sort overlay refuses a
                // new sorted one meanwhile): release it first.
                _ = try? connection.search(base: cursor.base, scope: .subtree, filter: cursor.filter, attributes: cursor.attributes,
                                           pageSize: 0, cookie: cursor.cookie, sortKeys: cursor.sortKey, cancel: cancel)
            }
        }
        connection.pagedCursor = nil
        var estimate = 0
        // Skipping goes in pages of the same size: OpenLDAP's sort overlay keeps the first
        // request's page size for the whole search.
        while position < offset {
            let skipped = try connection.search(base: base, scope: .subtree, filter: filter, attributes: attributes,
                                                pageSize: size, cookie: cookie, sortKeys: sortKey, cancel: cancel)
            position += skipped.entries.count
            estimate = meaning.total(skipped.estimatedTotal, readThrough: position)
            cookie = skipped.cookie ?? Data()
            if cookie.isEmpty { return Slice(entries: [], hasMore: false, estimatedTotal: max(estimate, position)) }
        }
        let result = try connection.search(base: base, scope: .subtree, filter: filter, attributes: attributes,
                                           pageSize: size, cookie: cookie, sortKeys: sortKey, cancel: cancel, reading: read)
        let next = result.cookie ?? Data()
        if !next.isEmpty {
            connection.pagedCursor = LDAPConnection.PagedCursor(
                key: key, nextOffset: position + result.entries.count, cookie: next, base: base, filter: filter,
                attributes: attributes, sortKey: sortKey)
        }
        return Slice(entries: result.entries, hasMore: !next.isEmpty,
                     estimatedTotal: meaning.total(result.estimatedTotal, readThrough: position + result.entries.count))
    }

    /// The page as Roster's `Page`: an exact total at the end, else the server's estimate when it
    /// is plausible, else "at least one more than seen".
    static func rosterPage<Item: Sendable>(_ slice: Slice<Item>, query page: Int, perPage: Int) -> Page<Item> {
        let items = slice.entries
        let seen = (page - 1) * perPage + items.count
        guard slice.hasMore else { return Page(items: items, page: page, perPage: perPage, total: seen) }
        if slice.estimatedTotal > seen { return Page(items: items, page: page, perPage: perPage, total: slice.estimatedTotal) }
        var result = Page(items: items, page: page, perPage: perPage, total: seen + 1)
        result.totalIsLowerBound = true
        return result
    }
}
