import RosterKit

/// What a bulk run does to each user, and how to say it.
public enum BulkAction: Sendable, Equatable {
    case suspend
    case reactivate
    case setRole(Role)
    case addToGroup(GroupReference)
    case removeFromGroup(GroupReference)
    case delete
    case resetPassword(PasswordReset)
    case unlock

    /// "Suspend", as the confirmation's button and question start.
    public var verb: String {
        switch self {
        case .suspend: "Suspend"
        case .reactivate: "Reactivate"
        case .setRole: "Change the role of"
        case .addToGroup: "Add"
        case .removeFromGroup: "Remove"
        case .delete: "Delete"
        case .resetPassword: "Reset the password of"
        case .unlock: "Unlock"
        }
    }

    /// The confirmation's button.
    public var buttonLabel: String {
        switch self {
        case .setRole(let role): "Make \(role.rawValue)"
        case .addToGroup: "Add"
        case .removeFromGroup: "Remove"
        case .resetPassword: "Reset"
        default: verb
        }
    }

    /// "Suspending", for the progress line.
    public var progressive: String {
        switch self {
        case .suspend: "Suspending"
        case .reactivate: "Reactivating"
        case .setRole(let role): "Making \(role.rawValue)"
        case .addToGroup(let group): "Adding to \(group.name)"
        case .removeFromGroup(let group): "Removing from \(group.name)"
        case .delete: "Deleting"
        case .resetPassword: "Resetting passwords"
        case .unlock: "Unlocking"
        }
    }

    /// "suspended", for the summary's counts.
    public var pastParticiple: String {
        switch self {
        case .suspend: "suspended"
        case .reactivate: "reactivated"
        case .setRole(let role): "made \(role.rawValue)"
        case .addToGroup(let group): "added to \(group.name)"
        case .removeFromGroup(let group): "removed from \(group.name)"
        case .delete: "deleted"
        case .resetPassword: "given the new password"
        case .unlock: "unlocked"
        }
    }

    /// The status line after a run without failures: "Suspended 3 users", "Added 200 users to Sales".
    public func completed(_ users: String) -> String {
        switch self {
        case .suspend: "Suspended \(users)"
        case .reactivate: "Reactivated \(users)"
        case .setRole(let role): "Made \(users) \(role.rawValue)"
        case .addToGroup(let group): "Added \(users) to \(group.name)"
        case .removeFromGroup(let group): "Removed \(users) from \(group.name)"
        case .delete: "Deleted \(users)"
        case .resetPassword: "Reset the password of \(users)"
        case .unlock: "Unlocked \(users)"
        }
    }

    /// What a user already in the wanted state is called: "already suspended".
    public var alreadyLabel: String {
        switch self {
        case .suspend: "already suspended"
        case .reactivate: "already active"
        case .setRole(let role): "already \(role.rawValue)"
        case .addToGroup: "already members"
        case .removeFromGroup: "not members"
        case .delete: "already gone"
        case .resetPassword: "unchanged"
        case .unlock: "not locked"
        }
    }

    /// The dialog's title.
    public var title: String {
        switch self {
        case .setRole: "Change roles"
        case .addToGroup: "Add to a group"
        case .removeFromGroup: "Remove from a group"
        case .resetPassword: "Reset passwords"
        default: "\(verb) users"
        }
    }

    /// The question about `users` ("1,000 users", "Ana Silva <ana@example.com>"): "Suspend
    /// 1,000 users?", "Add 3 users to Sales?". With a journal (`canUndo`), a delete says that
    /// `U` can take it back.
    public func question(about users: String, canUndo: Bool = false) -> String {
        switch self {
        case .setRole(let role): "Make \(users) \(role.rawValue)?"
        case .addToGroup(let group): "Add \(users) to \(group.name)?"
        case .removeFromGroup(let group): "Remove \(users) from \(group.name)?"
        case .delete: canUndo ? "Delete \(users)? U can undo it." : "Delete \(users)? This cannot be undone."
        case .resetPassword(let reset):
            "Give \(users) the password just typed?" + (reset.mustChange ? " They must change it at the next logon." : "")
        default: "\(verb) \(users)?"
        }
    }

    public var isDestructive: Bool {
        switch self {
        case .delete, .suspend, .resetPassword: true
        default: false
        }
    }

    /// Whether the action changes the user record itself (a read first, then a PUT or PATCH
    /// of the whole user as read), rather than a membership or the user's existence.
    var updatesUser: Bool {
        switch self {
        case .suspend, .reactivate, .setRole: true
        case .addToGroup, .removeFromGroup, .delete, .resetPassword, .unlock: false
        }
    }

    /// `user` as the action leaves it, or nil when it is so already.
    func applied(to user: User) -> UserDraft? {
        var draft = user.draft
        switch self {
        case .suspend:
            guard user.status != .suspended else { return nil }
            draft.status = .suspended
        case .reactivate:
            guard user.status != .active else { return nil }
            draft.status = .active
        case .setRole(let role):
            guard user.role != role else { return nil }
            draft.role = role
        case .addToGroup, .removeFromGroup, .delete, .resetPassword, .unlock:
            return nil
        }
        return draft
    }
}

/// One user a run acts on. `user` is the copy known when the run was asked for; `isFresh` when
/// it was read for this run (an "all matching" run reads every user first), so an update
/// needs no read of its own.
struct BulkTarget: Sendable, Equatable {
    var user: User
    var isFresh: Bool

    var id: String { user.id }
}

/// Who a run acts on: users known by the app, or every user of a query but some.
enum BulkScope: Sendable, Equatable {
    case users([BulkTarget])
    /// Users known by id only (an interrupted run being finished): each is read first.
    case ids([String])
    case allMatching(Marks.Query, except: Set<String>)
}

extension BulkAction {
    /// The action as a journal run's plan keeps it ("suspend", "setRole:admin",
    /// "addToGroup:<id>:<name>"), so an interrupted run can be finished; nil for a password
    /// reset, whose password is never kept.
    var journalName: String? {
        switch self {
        case .suspend: "suspend"
        case .reactivate: "reactivate"
        case .setRole(let role): "setRole:\(role.rawValue)"
        case .addToGroup(let group): "addToGroup:\(group.id):\(group.name)"
        case .removeFromGroup(let group): "removeFromGroup:\(group.id):\(group.name)"
        case .delete: "delete"
        case .unlock: "unlock"
        case .resetPassword: nil
        }
    }

    init?(journalName: String) {
        let parts = journalName.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "suspend": self = .suspend
        case "reactivate": self = .reactivate
        case "setRole" where parts.count == 2: self = .setRole(Role(rawValue: parts[1]))
        case "addToGroup" where parts.count == 3: self = .addToGroup(GroupReference(id: parts[1], name: parts[2]))
        case "removeFromGroup" where parts.count == 3: self = .removeFromGroup(GroupReference(id: parts[1], name: parts[2]))
        case "delete": self = .delete
        case "unlock": self = .unlock
        default: return nil
        }
    }
}
