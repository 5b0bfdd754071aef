#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Every user's folded name and email keys, in one sort's order, for searches of one or two
/// characters (and, on PostgreSQL, longer ones: see `PostgresStore+ListOrder`): too short
/// for the trigram index, they were answered by walking the sort's index
/// with `instr` until a page of matches was found. At a million users the first page of `q=an`
/// walked 53,000 index entries (25 ms), and a rare letter walked all of them (past the budget).
/// Here the walk is `memchr` over packed bytes, in list order.
///
/// A key is a substring of another exactly when its UTF-8 bytes are (UTF-8 is self-synchronizing),
/// which is what SQLite's `instr` on the same keys answers. Each key is followed by a NUL, which
/// no key or search holds (validation refuses control characters, and a search with one matches
/// no one before it gets here), so no match spans two keys.
struct OrderedSearchKeys: Sendable {
    /// Each user's `name_key`, NUL, `email_key`, NUL, in list order.
    private let bytes: [UInt8]
    /// `ends[position]`: where that user's keys end in `bytes`, one past the second NUL.
    private let ends: [UInt32]
    /// How often each byte value occurs in `bytes`: a search looks for its rarest byte first.
    private let byteCounts: [Int]

    var count: Int { ends.count }

    /// Collects the keys of a walk, user by user in list order.
    struct Builder {
        private var bytes: [UInt8] = []
        private var ends: [UInt32] = []
        private var byteCounts = [Int](repeating: 0, count: 256)

        init(expectedUsers: Int = 0) {
            ends.reserveCapacity(expectedUsers)
        }

        mutating func append(nameKey: UnsafeRawBufferPointer, emailKey: UnsafeRawBufferPointer) {
            for byte in nameKey { byteCounts[Int(byte)] += 1 }
            for byte in emailKey { byteCounts[Int(byte)] += 1 }
            bytes.append(contentsOf: nameKey)
            bytes.append(0)
            bytes.append(contentsOf: emailKey)
            bytes.append(0)
            ends.append(UInt32(truncatingIfNeeded: bytes.count))
        }

        /// Nil past 4 GiB of keys, which `ends` cannot address (the list is then read with SQL).
        func finish() -> OrderedSearchKeys? {
            bytes.count <= Int(UInt32.max) ? OrderedSearchKeys(bytes: bytes, ends: ends, byteCounts: byteCounts) : nil
        }
    }

    /// The positions of the users whose keys contain `pattern`, in list order: the `limit`
    /// after the first `offset` matches.
    func matches(of pattern: String, offset: Int, limit: Int) -> [Int] {
        guard limit > 0 else { return [] }
        var found: [Int] = []
        var skipped = 0
        forEachMatch(of: pattern) { position in
            if skipped < offset {
                skipped += 1
                return true
            }
            found.append(position)
            return found.count < limit
        }
        return found
    }

    /// As `matches`, counted from the end of the list: the `limit` matches before the last
    /// `skippingFromEnd`, last first. For pages past the middle, which then walk less than half.
    func matchesFromEnd(of pattern: String, skippingFromEnd skip: Int, limit: Int) -> [Int] {
        let needle = Array(pattern.utf8)
        guard !needle.isEmpty, limit > 0 else { return [] }
        var found: [Int] = []
        var skipped = 0
        bytes.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard let base = haystack.baseAddress else { return }
                let anchor = anchorIndex(of: needle)
                for position in stride(from: ends.count - 1, through: 0, by: -1) {
                    let start = position == 0 ? 0 : Int(ends[position - 1])
                    let length = Int(ends[position]) - start
                    guard Self.firstOccurrence(of: needle, anchor: anchor, in: base, from: start, to: start + length) != nil else { continue }
                    if skipped < skip {
                        skipped += 1
                    } else {
                        found.append(position)
                        if found.count == limit { return }
                    }
                }
            }
        }
        return found
    }

    /// How many places a search of `pattern` stops at to compare: the count of its rarest
    /// byte. A plan chooses by it (a pattern of common letters stops millions of times).
    func candidates(for pattern: String) -> Int {
        pattern.utf8.map { byteCounts[Int($0)] }.min() ?? 0
    }

    /// How many users' keys contain `pattern`: one pass over every key.
    func countMatches(of pattern: String) -> Int {
        var count = 0
        forEachMatch(of: pattern) { _ in
            count += 1
            return true
        }
        return count
    }

    /// Calls `body` with the position of each user whose keys contain `pattern`, in list order,
    /// until it returns false. Each user once: after a match, their other key is not searched.
    private func forEachMatch(of pattern: String, _ body: (Int) -> Bool) {
        let needle = Array(pattern.utf8)
        guard !needle.isEmpty else { return }
        bytes.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard let base = haystack.baseAddress else { return }
                let anchor = anchorIndex(of: needle)
                var start = 0
                var position = 0
                while let hit = Self.firstOccurrence(of: needle, anchor: anchor, in: base, from: start, to: haystack.count) {
                    position = firstPosition(endingAfter: hit, from: position)
                    guard body(position) else { return }
                    start = Int(ends[position])
                    position += 1
                }
            }
        }
    }

    /// The index in `needle` of its rarest byte.
    private func anchorIndex(of needle: UnsafeRawBufferPointer) -> Int {
        needle.indices.min { byteCounts[Int(needle[$0])] < byteCounts[Int(needle[$1])] } ?? 0
    }

    /// Where `needle` first starts in `bytes[start..<end]`: `memchr` finds each place its rarest
    /// byte (at `anchor` in it) occurs, at the C library's speed, then the rest is compared.
    /// (Glibc's `memmem` is a GNU extension Swift's Glibc module does not export.)
    private static func firstOccurrence(
        of needle: UnsafeRawBufferPointer, anchor: Int, in bytes: UnsafeRawPointer, from start: Int, to end: Int
    ) -> Int? {
        let anchorByte = Int32(needle[anchor])
        let tail = needle.count - anchor
        var at = start + anchor
        while end - at >= tail {
            guard let candidate = memchr(bytes + at, anchorByte, end - at - tail + 1) else { return nil }
            let found = bytes.distance(to: UnsafeRawPointer(candidate))
            let begin = found - anchor
            if memcmp(bytes + begin, needle.baseAddress!, needle.count) == 0 { return begin }
            at = found + 1
        }
        return nil
    }

    /// The first position at or after `lower` whose keys end after byte `offset`.
    private func firstPosition(endingAfter offset: Int, from lower: Int) -> Int {
        var low = lower, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if Int(ends[middle]) > offset { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
