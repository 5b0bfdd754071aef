import Foundation
import RosterKit
@testable import RosterServer
import Testing

/// `listCacheEntries: 0` (`roster-server --list-cache-size 0`): every list call runs its query.
///
/// A write made behind the server's back, through a second store on the same database file,
/// does not move the server's write generation, so a cached answer would hide it. With the
/// cache off the next list must show it; with the cache on it does not, which is what makes
/// the first test able to fail.
@Suite("List cache off: every list runs its query")
struct ListCacheOffTests {
    /// Lists `query` twice (so a cache would certainly hold it), adds a user through another
    /// store on the same file, and returns the totals before and after.
    private func totalsAroundOutsideWrite(listCacheEntries: Int) async throws -> (before: Int, after: Int) {
        try await withServer(seedCount: 12, listCacheEntries: listCacheEntries) { server in
            let users = server.repository()
            let query = UserQuery(perPage: 5)
            let first = try await users.list(query)
            #expect(first.items.count == 5)
            #expect(try await users.list(query) == first)

            let outside = try UserStore(path: server.databasePath)
            _ = try await outside.create(
                UserDraft(name: "Outside Writer", email: "outside@example.com"), at: Date())
            try outside.pool.close()

            return (first.total, try await users.list(query).total)
        }
    }

    @Test("with the cache off, lists work and a write the server did not make shows at once")
    func off() async throws {
        let totals = try await totalsAroundOutsideWrite(listCacheEntries: 0)
        #expect(totals.before == 12)
        #expect(totals.after == 13, "a list answer was served from a cache")
    }

    @Test("with the cache on, the same list is answered from the cache (the check above can fail)")
    func onForContrast() async throws {
        let totals = try await totalsAroundOutsideWrite(listCacheEntries: ServerConfiguration.defaultListCacheEntries)
        #expect(totals.before == 12)
        #expect(totals.after == 12)
    }

    @Test("the configuration keeps the default unless told, and never a negative size")
    func configuration() {
        #expect(ServerConfiguration(databasePath: "x").listCacheEntries == 256)
        #expect(ServerConfiguration(databasePath: "x", listCacheEntries: 0).listCacheEntries == 0)
        #expect(ServerConfiguration(databasePath: "x", listCacheEntries: -3).listCacheEntries == 0)
    }
}
