import RosterKit

/// The demo directory's groups: the company is its first `staff` users, each in one
/// department, of sizes a company has (Engineering the largest, Legal and Security the
/// smallest), some also on call or in leadership; users past them (customers, guests) are in
/// no group. Drawn user by user from a generator of their own, so the first N users are in the
/// same groups whatever the seed's size, and the users themselves are drawn as before.
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
    /// How many users the company has at most. Every user of a million in a group made the
    /// million-user seed 2.2 s slower (1.2 million memberships, and the groups in every
    /// user's stored JSON); teams of thousands cost it nothing measurable.
    static let staff = 10_000

    private static let seed: UInt64 = 0x4772_6F75_7073 // "Groups"

    /// `users` in the demo groups: each user carries its groups, and each group its members.
    static func directory(of users: consuming [User]) -> BulkDirectory {
        var generator = SeededGenerator(seed: seed)
        let names = departments.map(\.name) + [onCall, leadership]
        // A group a week apart from the next, from the demo's first day.
        let groups = names.enumerated().map { index, name in
            let created = DemoData.firstMillisecond + Int64(index) * 7 * 86_400_000
            return Group(
                id: UserID.make(milliseconds: created, randomBits: generator.next()), name: name, memberCount: 0,
                createdAt: Milliseconds.date(created), updatedAt: Milliseconds.date(created))
        }
        let onCallIndex = departments.count, leadershipIndex = departments.count + 1
        // Every user's groups are one of these few lists, made once and shared: a million users
        // each sorting and allocating their own took most of the groups' part of the seed.
        let lists = GroupLists(groups)
        let onCallShares = departments.map { onCallShare[$0.name] }

        var members = [[Int]](repeating: [], count: groups.count)
        var grouped = users
        for place in grouped.indices.prefix(staff) {
            var ticket = Int.random(in: 0..<1000, using: &generator)
            let department = departments.firstIndex { ticket -= $0.perMille; return ticket < 0 } ?? 0
            members[department].append(place)
            var isOnCall = false
            if let share = onCallShares[department], Int.random(in: 0..<share, using: &generator) == 0 {
                members[onCallIndex].append(place)
                isOnCall = true
            }
            let isLeader = Int.random(in: 0..<leadershipShare, using: &generator) == 0
            if isLeader { members[leadershipIndex].append(place) }
            grouped[place].groups = lists.references(department: department, onCall: isOnCall, leader: isLeader)
        }
        return BulkDirectory(users: grouped, groups: zip(groups, members).map { group, members in
            var group = group
            group.memberCount = members.count
            return BulkGroup(group: group, members: members)
        })
    }

    /// A user's groups for each department, on call or not, in leadership or not, listed as the
    /// store reads them back (`Memberships`): by folded name, then id.
    private struct GroupLists {
        private var lists: [[GroupReference]] = []

        init(_ groups: [Group]) {
            let onCall = departments.count, leadership = departments.count + 1
            for department in departments.indices {
                for flags in 0..<4 {
                    let mine = [department] + (flags & 1 != 0 ? [onCall] : []) + (flags & 2 != 0 ? [leadership] : [])
                    lists.append(mine.map { groups[$0] }
                        .sorted { (SortKey.of($0.name), $0.id) < (SortKey.of($1.name), $1.id) }
                        .map(\.reference))
                }
            }
        }

        func references(department: Int, onCall: Bool, leader: Bool) -> [GroupReference] {
            lists[department * 4 + (onCall ? 1 : 0) + (leader ? 2 : 0)]
        }
    }
}
