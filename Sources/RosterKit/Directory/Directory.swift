/// A user directory as the app sees it: its users, its groups, who is in which, and what it can
/// do (its traits). The app gets one value of this type per connection and never learns how
/// the directory is reached: the Roster API and SCIM over HTTP (`RemoteDirectory`), or an
/// in-memory directory in tests, all answer the same calls.
///
/// Failures are `APIError`; a cancelled call throws `CancellationError`.
public protocol Directory: Sendable {
    /// What the app may offer here. Asked after the first successful load; before that a
    /// directory says what it assumes.
    func traits() async -> DirectoryTraits

    // MARK: Users

    /// One page of users, searched, filtered and sorted as `query` says.
    func listUsers(_ query: UserQuery) async throws -> Page<User>
    /// Asks for `query` now, before anyone needs it, so that the first `listUsers(query)` finds
    /// its answer on the way: the launcher starts the first page while the terminal is set up.
    /// A read; a directory for which asking early gains nothing does nothing.
    func prefetchUsers(_ query: UserQuery) async
    func user(id: String) async throws -> User
    /// Creates a user. `idempotencyKey` names the person's action: the same key goes with every
    /// retry of it, so a create whose answer was lost is not made twice.
    func createUser(_ draft: UserDraft, idempotencyKey: String) async throws -> User
    /// Changes what `draft` says of the user; whatever the directory holds that Roster does
    /// not model is kept.
    func updateUser(id: String, with draft: UserDraft) async throws -> User
    /// An edit of `original`, the user as the person saw them: where the directory can tell
    /// (the Roster API's `If-Match`), a change someone made since is refused with 412 rather
    /// than written over. By default, `updateUser(id:with:)`.
    func updateUser(_ original: User, with draft: UserDraft) async throws -> User
    /// Removes the user. A delete whose answer was lost and whose retry finds the user gone
    /// counts as done.
    func deleteUser(id: String) async throws

    // MARK: Groups

    /// One page of groups, searched by name and sorted as `query` says.
    func listGroups(_ query: GroupQuery) async throws -> Page<Group>
    func group(id: String) async throws -> Group
    func createGroup(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group
    func renameGroup(id: String, to draft: GroupDraft) async throws -> Group
    /// Removes the group and its memberships (never its users).
    func deleteGroup(id: String) async throws
    /// One page of the group's members, in `query`'s page and size. Where the directory can,
    /// the search and sort apply too.
    func members(of groupID: String, _ query: UserQuery) async throws -> Page<User>
    /// Adds and removes members, all or nothing (at most `MembershipChange.maximumIDs` ids).
    /// Adding a member twice or removing one who is not in changes nothing, so the groups
    /// view and a bulk run (one user a call) go through this same call.
    func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group

    // MARK: History

    /// The user's changes, newest first, where `traits().hasHistory`; elsewhere `notImplemented`.
    func history(ofUser id: String) async throws -> [UserChange]

    // MARK: The help desk's actions (where the traits say so)

    /// Sets the user's password; with `mustChange`, the user must choose another at the next
    /// logon (`DirectoryTraits.canRequirePasswordChange`). The password is never logged.
    func resetPassword(id: String, to password: String, mustChange: Bool) async throws
    /// Clears a lockout after failed logins; false when the account was not locked (nothing
    /// changed). An account suspended on purpose stays suspended.
    func unlock(id: String) async throws -> Bool
}

extension Directory {
    public func updateUser(_ original: User, with draft: UserDraft) async throws -> User {
        try await updateUser(id: original.id, with: draft)
    }

    /// A directory whose traits offer no reset says so if asked anyway.
    public func resetPassword(id: String, to password: String, mustChange: Bool) async throws {
        throw APIError.notImplemented(ErrorBody(code: "no_password_reset", message: "This directory cannot reset passwords."))
    }

    public func unlock(id: String) async throws -> Bool {
        throw APIError.notImplemented(ErrorBody(code: "no_unlock", message: "This directory cannot unlock accounts."))
    }

    public func prefetchUsers(_ query: UserQuery) async {}

    /// Directories without a history of changes (SCIM, LDAP, test doubles unless they keep one).
    public func history(ofUser id: String) async throws -> [UserChange] {
        throw APIError.notImplemented(nil)
    }

    /// Creates a user as a new action, with a fresh idempotency key.
    public func createUser(_ draft: UserDraft) async throws -> User {
        try await createUser(draft, idempotencyKey: IdempotencyKey.make())
    }

    /// Creates a group as a new action, with a fresh idempotency key.
    public func createGroup(_ draft: GroupDraft) async throws -> Group {
        try await createGroup(draft, idempotencyKey: IdempotencyKey.make())
    }

    /// Puts one user in the group; already a member changes nothing.
    @discardableResult
    public func addMember(_ userID: String, to groupID: String) async throws -> Group {
        try await changeMembers(of: groupID, MembershipChange(add: [userID]))
    }

    /// Takes one user out of the group; not a member changes nothing.
    @discardableResult
    public func removeMember(_ userID: String, from groupID: String) async throws -> Group {
        try await changeMembers(of: groupID, MembershipChange(remove: [userID]))
    }

    /// Groups whose name matches `text` as the directory searches names (case-insensitively,
    /// a substring where it can), at most `limit`: how a group filter or a bulk group action
    /// finds the group a person typed. A directory without groups has none to find.
    public func groups(named text: String, limit: Int) async throws -> [GroupReference] {
        guard await traits().hasGroups else { return [] }
        let query = GroupQuery(perPage: min(max(limit, 1), UserQuery.perPageRange.upperBound), search: text)
        return try await listGroups(query).items.map(\.reference)
    }
}
