import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// `listCacheEntries: 0` (`roster-server --list-cache-size 0`): every list call runs its query.
///
/// A write made behind the server's back, through a second store on the same database file,
/// must show in the next list either way: with the cache off because the query runs again,
/// with it on because the cache follows the database's write generation, which any
/// connection's commit moves.
@Suite("List cache off: every list runs its query")
struct ListCacheOffTests {
    /// Lists `query` twice (so a cache would certainly hold it), adds a user through another
    /// store on the same file, and returns the totals before and after.
    private func totalsAroundOutsideWrite(listCacheEntries: Int) async throws -> (before: Int, after: Int) {
        try await withServer(seedCount: 12, listCacheEntries: listCacheEntries) { server in
            let users = server.repository()
            let query = UserQuery(perPage: 5)
            let first = try await users.listUsers(query)
            #expect(first.items.count == 5)
            #expect(try await users.listUsers(query) == first)

            let outside = try SQLiteStore(path: server.databasePath)
            _ = try await outside.create(
                UserDraft(name: "Outside Writer", email: "outside@example.com"), at: Date())
            try outside.pool.close()

            return (first.total, try await users.listUsers(query).total)
        }
    }

    @Test("with the cache off, lists work and a write the server did not make shows at once")
    func off() async throws {
        let totals = try await totalsAroundOutsideWrite(listCacheEntries: 0)
        #expect(totals.before == 12)
        #expect(totals.after == 13, "a list answer was served from a cache")
    }

    @Test("with the cache on, a write through another connection to the file shows at once too")
    func onSeesOutsideWrites() async throws {
        let totals = try await totalsAroundOutsideWrite(listCacheEntries: ServerConfiguration.defaultListCacheEntries)
        #expect(totals.before == 12)
        #expect(totals.after == 13, "a cached list hid a write made outside the server")
    }

    @Test("the configuration keeps the default unless told, and never a negative size")
    func configuration() {
        #expect(ServerConfiguration(databasePath: "x").listCacheEntries == 256)
        #expect(ServerConfiguration(databasePath: "x", listCacheEntries: 0).listCacheEntries == 0)
        #expect(ServerConfiguration(databasePath: "x", listCacheEntries: -3).listCacheEntries == 0)
    }
}
