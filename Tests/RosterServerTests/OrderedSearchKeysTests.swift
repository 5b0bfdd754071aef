@testable import RosterServer
import Testing

/// `OrderedSearchKeys` against the plain answer: the users whose name or email key contains
/// the pattern, in order, paged from the start and from the end.
@Suite("Ordered search keys: memmem over packed keys finds what a substring test finds")
struct OrderedSearchKeysTests {
    private static let users: [(name: String, email: String)] = [
        ("anna", "anna@example.com"), ("bob", "b@x.org"), ("ivan", "ivan@corp.example.org"),
        ("zoë", "zoe@example.com"), ("سارة", "sara@example.com"), ("an", "an@an.an"),
        ("", "empty@example.com"), ("日本語", "nihon@example.jp"), ("bran", "bran@example.com"),
    ]

    private static func keys() -> OrderedSearchKeys {
        var builder = OrderedSearchKeys.Builder()
        for user in users {
            Array(user.name.utf8).withUnsafeBytes { name in
                Array(user.email.utf8).withUnsafeBytes { email in builder.append(nameKey: name, emailKey: email) }
            }
        }
        return builder.finish()!
    }

    private static func expected(_ pattern: String) -> [Int] {
        users.indices.filter { users[$0].name.utf8.contains(pattern.utf8) || users[$0].email.utf8.contains(pattern.utf8) }
    }

    @Test("every page of every pattern, forward and from the end",
          arguments: ["a", "an", "n@", "ë", "ار", "本", "m", "@", "q", "zz", "anna@example.com", "ran", "example.c", "van@c"])
    func pages(pattern: String) {
        let keys = Self.keys()
        let all = Self.expected(pattern)
        for limit in 1...4 {
            for offset in 0...all.count + 1 {
                let forward = Array(all.dropFirst(offset).prefix(limit))
                #expect(keys.matches(of: pattern, offset: offset, limit: limit) == forward, "\(pattern) \(offset) \(limit)")
                let backward = Array(all.reversed().dropFirst(offset).prefix(limit))
                #expect(keys.matchesFromEnd(of: pattern, skippingFromEnd: offset, limit: limit) == backward,
                        "\(pattern) from end \(offset) \(limit)")
            }
        }
        #expect(keys.countMatches(of: pattern) == all.count, "\(pattern)")
    }

    @Test("a match never spans a name and its email, or two users")
    func noMatchAcrossKeys() {
        // "bob" then "b@x.org": "bb" only across the boundary; "orgivan" across two users.
        #expect(Self.keys().matches(of: "bb", offset: 0, limit: 10).isEmpty)
        #expect(Self.keys().matches(of: "orgivan", offset: 0, limit: 10).isEmpty)
        #expect(Self.keys().count == Self.users.count)
    }
}

private extension String.UTF8View {
    func contains(_ other: String.UTF8View) -> Bool {
        let haystack = Array(self), needle = Array(other)
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }
}
