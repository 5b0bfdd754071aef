import NIOCore
import RosterKit
import Synchronization
@testable import RosterServer
import Testing

@Suite("ListResponseCache: generations and bounds")
struct ListResponseCacheTests {
    private func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    @Test("an answer is found under its generation and under no other")
    func generations() {
        let cache = ListResponseCache()
        let query = UserListQuery()
        cache.store(body("a"), for: query, generation: 3)
        #expect(cache.lookup(query, generation: 3) == body("a"))
        #expect(cache.lookup(UserListQuery(page: 2), generation: 3) == nil)
        // A newer generation empties the cache; the old answer never comes back.
        #expect(cache.lookup(query, generation: 4) == nil)
        #expect(cache.count == 0)
        #expect(cache.lookup(query, generation: 3) == nil)
        // An answer read under an outdated generation is not kept.
        cache.store(body("old"), for: query, generation: 3)
        #expect(cache.count == 0)
        cache.store(body("b"), for: query, generation: 4)
        #expect(cache.lookup(query, generation: 4) == body("b"))
        // A store under a newer generation replaces everything older.
        cache.store(body("c"), for: UserListQuery(page: 2), generation: 5)
        #expect(cache.count == 1)
        #expect(cache.lookup(query, generation: 5) == nil)
    }

    @Test("searches that fold to the same key share an entry")
    func foldedSearch() {
        #expect(ListResponseCache.key(UserListQuery(search: "ÉMILE")) == ListResponseCache.key(UserListQuery(search: "e\u{301}mile")))
        #expect(ListResponseCache.key(UserListQuery(search: "ann")) != ListResponseCache.key(UserListQuery(search: "anna")))
        #expect(ListResponseCache.key(UserListQuery(page: 1)) != ListResponseCache.key(UserListQuery(page: 1, role: .admin)))
    }

    @Test("past the entry limit, the least recently used goes first")
    func entryLimit() {
        let cache = ListResponseCache(maximumEntries: 3)
        for page in 1...3 { cache.store(body("\(page)"), for: UserListQuery(page: page), generation: 0) }
        _ = cache.lookup(UserListQuery(page: 1), generation: 0) // page 2 is now the oldest use
        cache.store(body("4"), for: UserListQuery(page: 4), generation: 0)
        #expect(cache.count == 3)
        #expect(cache.lookup(UserListQuery(page: 2), generation: 0) == nil)
        #expect(cache.lookup(UserListQuery(page: 1), generation: 0) == body("1"))
        #expect(cache.lookup(UserListQuery(page: 4), generation: 0) == body("4"))
    }

    @Test("past the byte limit, old entries go; an answer bigger than the limit is not kept")
    func byteLimit() {
        let cache = ListResponseCache(maximumEntries: 100, maximumBytes: 10)
        cache.store(body("aaaa"), for: UserListQuery(page: 1), generation: 0)
        cache.store(body("bbbb"), for: UserListQuery(page: 2), generation: 0)
        cache.store(body("cccc"), for: UserListQuery(page: 3), generation: 0)
        #expect(cache.count == 2)
        #expect(cache.lookup(UserListQuery(page: 1), generation: 0) == nil)
        // Replacing an entry counts its bytes once.
        cache.store(body("dddd"), for: UserListQuery(page: 3), generation: 0)
        #expect(cache.count == 2)
        cache.store(body(String(repeating: "x", count: 11)), for: UserListQuery(page: 9), generation: 0)
        #expect(cache.lookup(UserListQuery(page: 9), generation: 0) == nil)
        #expect(cache.count == 2)
    }

    @Test("an answer loaded while a write committed is sent but not kept; the next call loads again")
    func writeDuringLoad() async {
        let cache = ListResponseCache()
        let writes = Atomic<UInt64>(1)
        let generation = { writes.load(ordering: .acquiring) }
        let query = UserListQuery()
        let raced = await cache.answer(query, generation: generation) {
            writes.add(1, ordering: .releasing) // a write commits while the query runs
            return body("maybe outdated")
        }
        #expect(raced == body("maybe outdated"))
        #expect(cache.count == 0)
        let fresh = await cache.answer(query, generation: generation) { body("fresh") }
        #expect(fresh == body("fresh"))
        let kept = await cache.answer(query, generation: generation) { body("not asked") }
        #expect(kept == body("fresh"))
        writes.add(1, ordering: .releasing)
        let afterWrite = await cache.answer(query, generation: generation) { body("after the write") }
        #expect(afterWrite == body("after the write"))
    }
}
