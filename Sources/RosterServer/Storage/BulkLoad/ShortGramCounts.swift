import GRDB

/// `users_short_count`'s and `users_count`'s rows for a bulk load (SQLite's or PostgreSQL's), counted in memory: a million
/// users have some 90 million (user, gram) pairs, far too many to group in SQL within the
/// seeding budget, and grouping the users by (role, status) in SQL reads every row again.
///
/// Most grams are ASCII (every email key and most name keys). Those are counted in a flat array
/// indexed by the gram, and a user's repeated grams are skipped by stamping each slot with the
/// last user counted in it. Sorting each user's grams to drop repeats and counting them in a
/// dictionary cost 4 s of CPU at a million users.
struct ShortGramCounts {
    /// One slot per ASCII gram: 128 single characters, then 128 × 128 pairs.
    private static let asciiSlots = 128 + 128 * 128

    /// A gram outside ASCII, in a group.
    private struct Key: Hashable {
        var code: ShortGrams.Code
        /// Index of the (role, status) in `groups`.
        var group: Int
    }

    private var groups: [(role: String, status: String)] = []
    /// Users per entry of `groups`.
    private var users: [Int] = []
    /// Users per ASCII gram, `asciiSlots` per entry of `groups`.
    private var asciiCounts: [Int] = []
    /// The number of the last user counted in each ASCII slot.
    private var asciiStamps = [Int](repeating: 0, count: ShortGramCounts.asciiSlots)
    /// The number of the user being counted (the first is 1).
    private var userNumber = 0
    private var otherCounts: [Key: Int] = [:]

    /// Counts one user with these folded keys.
    mutating func add(role: String, status: String, keys: [String]) {
        let group = groupIndex(role: role, status: status)
        users[group] += 1
        userNumber += 1
        var others: [ShortGrams.Code] = []
        for key in keys {
            var previous: UInt32?
            for scalar in key.unicodeScalars {
                let current = scalar.value
                if current < 128 {
                    countASCII(slot: Int(current), group: group)
                } else {
                    others.append(ShortGrams.Code(current))
                }
                if let previous {
                    if previous < 128 && current < 128 {
                        countASCII(slot: 128 + Int(previous) * 128 + Int(current), group: group)
                    } else {
                        others.append(ShortGrams.pair(ShortGrams.Code(previous), ShortGrams.Code(current)))
                    }
                }
                previous = current
            }
        }
        guard !others.isEmpty else { return }
        others.sort()
        var last: ShortGrams.Code?
        for code in others where code != last {
            otherCounts[Key(code: code, group: group), default: 0] += 1
            last = code
        }
    }

    private mutating func countASCII(slot: Int, group: Int) {
        guard asciiStamps[slot] != userNumber else { return }
        asciiStamps[slot] = userNumber
        asciiCounts[group * Self.asciiSlots + slot] += 1
    }

    /// Adds another count's users and grams to this one's.
    mutating func add(_ other: ShortGramCounts) {
        let groupIndexes = other.groups.map { groupIndex(role: $0.role, status: $0.status) }
        for (group, count) in other.users.enumerated() {
            users[groupIndexes[group]] += count
            let from = group * Self.asciiSlots, to = groupIndexes[group] * Self.asciiSlots
            for slot in 0..<Self.asciiSlots { asciiCounts[to + slot] += other.asciiCounts[from + slot] }
        }
        for (key, count) in other.otherCounts {
            otherCounts[Key(code: key.code, group: groupIndexes[key.group]), default: 0] += count
        }
    }

    /// A few (role, status) pairs (nine for the known values), so a linear search.
    private mutating func groupIndex(role: String, status: String) -> Int {
        if let index = groups.firstIndex(where: { $0.role == role && $0.status == status }) { return index }
        groups.append((role, status))
        users.append(0)
        asciiCounts.append(contentsOf: repeatElement(0, count: Self.asciiSlots))
        return groups.count - 1
    }

    private static func code(ofASCIISlot slot: Int) -> ShortGrams.Code {
        guard slot >= 128 else { return ShortGrams.Code(slot) }
        return ShortGrams.pair(ShortGrams.Code((slot - 128) / 128), ShortGrams.Code((slot - 128) % 128))
    }

    /// Users per (role, status).
    func forEachGroup(_ body: (_ role: String, _ status: String, _ users: Int) throws -> Void) rethrows {
        for (group, count) in zip(groups, users) { try body(group.role, group.status, count) }
    }

    /// Users per (gram, role, status), for every gram some user has.
    func forEachGram(_ body: (_ gram: String, _ role: String, _ status: String, _ users: Int) throws -> Void) rethrows {
        for group in groups.indices {
            for slot in 0..<Self.asciiSlots where asciiCounts[group * Self.asciiSlots + slot] > 0 {
                try body(ShortGrams.text(of: Self.code(ofASCIISlot: slot)), groups[group].role, groups[group].status,
                         asciiCounts[group * Self.asciiSlots + slot])
            }
        }
        for (key, count) in otherCounts {
            try body(ShortGrams.text(of: key.code), groups[key.group].role, groups[key.group].status, count)
        }
    }

    /// Adds the counts to SQLite's tables (the load's users are new, so their counts add up).
    func add(to db: Database) throws {
        let users = try db.makeStatement(sql: """
            INSERT INTO users_count(role, status, n) VALUES (?, ?, ?)
                ON CONFLICT(role, status) DO UPDATE SET n = n + excluded.n
            """)
        try forEachGroup { role, status, count in try users.execute(arguments: [role, status, count]) }
        let grams = try db.makeStatement(sql: """
            INSERT INTO users_short_count(gram, role, status, n) VALUES (?, ?, ?, ?)
                ON CONFLICT(gram, role, status) DO UPDATE SET n = n + excluded.n
            """)
        try forEachGram { gram, role, status, count in try grams.execute(arguments: [gram, role, status, count]) }
    }
}
