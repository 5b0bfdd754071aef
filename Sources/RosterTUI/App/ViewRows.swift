import RosterKit

// The models' users, groups and orders as the views draw them: the only place the views' rows
// meet the wire types. Each conversion copies references to the same strings and allocates
// nothing, so the list can build its visible rows on every frame.

extension UserRowContent {
    init(_ user: User) {
        self.init(name: user.name, email: user.email, role: user.role.rawValue, isAdmin: user.role == .admin,
                  status: user.status.rawValue, statusTone: StatusTone(user.status))
    }
}

extension StatusTone {
    init(_ status: Status) {
        switch status {
        case .active: self = .active
        case .suspended: self = .suspended
        case .invited: self = .invited
        case .unknown: self = .unknown
        }
    }
}

extension SortContent {
    init(_ sort: UserSort) {
        switch sort {
        case .directory: self.init(label: sort.label, column: nil, ascending: true)
        case .name: self.init(label: sort.label, column: .name, ascending: true)
        case .nameDescending: self.init(label: sort.label, column: .name, ascending: false)
        case .email: self.init(label: sort.label, column: .email, ascending: true)
        case .emailDescending: self.init(label: sort.label, column: .email, ascending: false)
        case .createdAt: self.init(label: sort.label, column: nil, ascending: true)
        case .createdAtDescending: self.init(label: sort.label, column: nil, ascending: false)
        }
    }
}

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
