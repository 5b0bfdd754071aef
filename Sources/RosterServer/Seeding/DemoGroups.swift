import RosterKit

/// The demo directory's groups: every user in one department, of sizes a company has
/// (Engineering the largest, Legal and Security the smallest), and some also on call or in
/// leadership. Drawn user by user from a generator of their own, so the first N users are in
/// the same groups whatever the seed's size, and the users themselves are drawn as before.
enum DemoGroups {
    /// Departments and their shares of the users, in thousandths (they add up to 1000).
    static let departments: [(name: String, perMille: Int)] = [
        ("Engineering", 440), ("Sales", 160), ("Support", 140), ("Marketing", 80), ("Design", 60),
        ("Finance", 40), ("People", 40), ("Legal", 20), ("Security", 20),
    ]
    static let onCall = "On-call"
    static let leadership = "Leadership"
    /// One engineer in four and one support person in five take turns on call.
    private static let onCallShare: [String: Int] = ["Engineering": 4, "Support": 5]
    /// One user in forty, from any department.
    private static let leadershipShare = 40

    private static let seed: UInt64 = 0x4772_6F75_7073 // "Groups"

    /// `users` in the demo groups: each user carries its groups, and each group its members.
    static func directory(of users: [User]) -> BulkDirectory {
        var generator = SeededGenerator(seed: seed)
        let names = departments.map(\.name) + [onCall, leadership]
        // A group a week apart from the next, from the demo's first day.
        let groups = names.enumerated().map { index, name in
            let created = DemoData.firstMillisecond + Int64(index) * 7 * 86_400_000
            return Group(
                id: UserID.make(milliseconds: created, randomBits: generator.next()), name: name, memberCount: 0,
                createdAt: Milliseconds.date(created), updatedAt: Milliseconds.date(created))
        }
        // A user lists its groups by folded name, then id, as the store reads them back (`Memberships`).
        let listed = groups.indices.sorted { (SortKey.of(groups[$0].name), groups[$0].id) < (SortKey.of(groups[$1].name), groups[$1].id) }
        let rank = Dictionary(uniqueKeysWithValues: listed.enumerated().map { ($1, $0) })
        let onCallIndex = departments.count, leadershipIndex = departments.count + 1

        var members = [[Int]](repeating: [], count: groups.count)
        var grouped = users
        for place in grouped.indices {
            var ticket = Int.random(in: 0..<1000, using: &generator)
            let department = departments.firstIndex { ticket -= $0.perMille; return ticket < 0 } ?? 0
            var mine = [department]
            if let share = onCallShare[departments[department].name], Int.random(in: 0..<share, using: &generator) == 0 {
                mine.append(onCallIndex)
            }
            if Int.random(in: 0..<leadershipShare, using: &generator) == 0 { mine.append(leadershipIndex) }
            for group in mine { members[group].append(place) }
            grouped[place].groups = mine.sorted { rank[$0]! < rank[$1]! }.map { groups[$0].reference }
        }
        return BulkDirectory(users: grouped, groups: zip(groups, members).map { group, members in
            var group = group
            group.memberCount = members.count
            return BulkGroup(group: group, members: members)
        })
    }
}
