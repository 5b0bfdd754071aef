import Foundation
import RosterKit

/// Makes realistic demo users, the same ones for the same count on every run: names from
/// many scripts, unique emails, roles, statuses and creation dates spread over seven years;
/// and the groups they are in (`DemoGroups`).
enum DemoData {
    static let domains = ["example.com", "example.org", "example.net", "mail.example.com", "corp.example.org"]
    /// Creation dates fall in [2019-01-01, 2026-01-01) UTC.
    static let firstMillisecond: Int64 = 1_546_300_800_000
    static let endMillisecond: Int64 = 1_767_225_600_000
    private static let seed: UInt64 = 0x526F_7374_6572 // "Roster"

    /// `count` users in the demo groups (`DemoGroups`): what `--seed` loads.
    static func directory(userCount: Int) -> BulkDirectory {
        DemoGroups.directory(of: users(count: userCount))
    }

    /// `count` users in no group.
    static func users(count: Int) -> [User] {
        var generator = SeededGenerator(seed: seed)
        let pools = NamePool.all
        let totalWeight = pools.reduce(0) { $0 + $1.weight }
        var emailsSeen: [String: Int] = [:]
        var users: [User] = []
        users.reserveCapacity(count)
        for _ in 0..<max(0, count) {
            var ticket = Int.random(in: 0..<totalWeight, using: &generator)
            let pool = pools.first { ticket -= $0.weight; return ticket < 0 } ?? pools[0]
            let given = pool.given.randomElement(using: &generator)!
            let family = pool.family.randomElement(using: &generator)!
            let domain = domains.randomElement(using: &generator)!

            let base = "\(given.latin).\(family.latin)@\(domain)"
            let seen = emailsSeen[base, default: 0]
            emailsSeen[base] = seen + 1
            let email = seen == 0 ? base : "\(given.latin).\(family.latin)\(seen + 1)@\(domain)"

            let created = Int64.random(in: firstMillisecond..<endMillisecond, using: &generator)
            let updated = min(endMillisecond, created + Int64.random(in: 0...(400 * 86_400_000), using: &generator))
            users.append(User(
                id: UserID.make(milliseconds: created, randomBits: generator.next()),
                name: pool.fullName(given: given, family: family), email: email,
                role: role(Int.random(in: 0..<100, using: &generator)),
                status: status(Int.random(in: 0..<100, using: &generator)),
                createdAt: Milliseconds.date(created), updatedAt: Milliseconds.date(updated)))
        }
        return users
    }

    private static func role(_ percentile: Int) -> Role {
        switch percentile {
        case ..<6: .admin
        case ..<76: .member
        default: .viewer
        }
    }

    private static func status(_ percentile: Int) -> Status {
        switch percentile {
        case ..<82: .active
        case ..<91: .invited
        default: .suspended
        }
    }
}
