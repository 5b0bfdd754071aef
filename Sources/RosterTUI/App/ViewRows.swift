import RosterKit

// The models' groups and members as the views draw them: the only place the views' rows
// meet the wire types. Each conversion copies references to the same strings and allocates
// nothing.

extension GroupsContent.GroupRow {
    init(_ group: Group) {
        self.init(name: group.name, memberCount: group.memberCount)
    }
}

extension GroupsContent.MemberRow {
    init(_ user: User) {
        self.init(name: user.name, email: user.email)
    }
}
