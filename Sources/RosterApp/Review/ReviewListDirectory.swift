import RosterKit

/// One list of an access review as a directory, so the list is a normal Roster list (search,
/// marks, bulk actions, CSV export, undo) through the same `AppModel` as any connection. It
/// lists the accounts the review found; everything else goes to the directory they live in
/// (the target's, for every list but "only in source"): a user is read from there, a bulk
/// run's write is sent there (and journalled under that connection's name), so what the
/// screen does lands on the real accounts. The list keeps each account as last read or
/// written, so a suspended leaver shows as suspended without reading the whole list again.
public actor ReviewListDirectory: Directory {
    /// Where the accounts live and every call but the listing goes.
    public let backing: any Directory
    private var accounts: [ReviewPerson]
    private var latest: [String: User] = [:] {
        didSet { listed = nil }
    }
    /// The list as the last query filtered and sorted it: paging through 100,000 sorts once.
    private var listed: (query: UserQuery, users: [User])?

    /// `side` says which side of each finding the list shows (the target's, but for the
    /// people only in the source).
    public init(findings: [ReviewFindings.Finding], side: ReviewSide.Position, backing: any Directory) {
        self.backing = backing
        accounts = findings.compactMap { side == .target ? $0.target : $0.source }
    }

    /// The backing directory's traits, but sorted and filtered here (the list is in memory)
    /// and without groups (a group filter would list the group's members, not the review's).
    public func traits() async -> DirectoryTraits {
        var traits = await backing.traits()
        traits.canSort = true
        traits.searchLimitation = nil
        traits.hasGroups = false
        traits.hasHistory = false
        return traits
    }

    public func listUsers(_ query: UserQuery) async throws -> Page<User> {
        let users = listed?.query == query.atPage(1) ? listed!.users : filteredAndSorted(query.atPage(1))
        let start = min(users.count, (max(1, query.page) - 1) * query.perPage)
        let items = Array(users[start..<min(users.count, start + query.perPage)])
        return Page(items: items, page: query.page, perPage: query.perPage, total: users.count)
    }

    private func filteredAndSorted(_ query: UserQuery) -> [User] {
        var users = accounts.map { latest[$0.id] ?? Self.user(from: $0) }
        if let search = query.search.map(ReviewFold.key), !search.isEmpty {
            users = users.filter { ReviewFold.key($0.name).contains(search) || ReviewFold.key($0.email).contains(search) }
        }
        if let role = query.role { users = users.filter { $0.role == role } }
        if let status = query.status { users = users.filter { $0.status == status } }
        users = Self.sorted(users, by: query.sort)
        listed = (query, users)
        return users
    }

    public func user(id: String) async throws -> User {
        let user = try await backing.user(id: id)
        latest[id] = user
        return user
    }

    /// A review lists what it compared: new users are made in the connection itself.
    public func createUser(_ draft: UserDraft, idempotencyKey: String) async throws -> User {
        throw APIError.notImplemented(ErrorBody(code: "review_list", message: "A review's list cannot create users: open the connection itself (C) to add one."))
    }

    public func updateUser(id: String, with draft: UserDraft) async throws -> User {
        let user = try await backing.updateUser(id: id, with: draft)
        latest[id] = user
        return user
    }

    public func deleteUser(id: String) async throws {
        try await backing.deleteUser(id: id)
        accounts.removeAll { $0.id == id }
        latest[id] = nil
        listed = nil
    }

    // Groups, history and the help desk's actions are the backing directory's own.

    public func listGroups(_ query: GroupQuery) async throws -> Page<Group> { try await backing.listGroups(query) }
    public func group(id: String) async throws -> Group { try await backing.group(id: id) }
    public func createGroup(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        try await backing.createGroup(draft, idempotencyKey: idempotencyKey)
    }
    public func renameGroup(id: String, to draft: GroupDraft) async throws -> Group { try await backing.renameGroup(id: id, to: draft) }
    public func deleteGroup(id: String) async throws { try await backing.deleteGroup(id: id) }
    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> { try await backing.members(of: groupID, query) }
    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        try await backing.changeMembers(of: groupID, change)
    }
    public func history(ofUser id: String) async throws -> [UserChange] { try await backing.history(ofUser: id) }
    public func resetPassword(id: String, to password: String, mustChange: Bool) async throws {
        try await backing.resetPassword(id: id, to: password, mustChange: mustChange)
    }
    public func unlock(id: String) async throws -> Bool {
        let unlocked = try await backing.unlock(id: id)
        latest[id] = nil
        return unlocked
    }

    /// An account as the review kept it (no timestamps or groups: the detail pane reads the
    /// whole user from the backing directory).
    static func user(from person: ReviewPerson) -> User {
        User(id: person.id, name: person.name, email: person.email, role: person.role ?? .member, status: person.status,
             createdAt: .distantPast, updatedAt: .distantPast)
    }

    /// The list's order: the sorts the server would apply (names and emails compared folded),
    /// ties broken by id. Each user's key is folded once, not at every comparison.
    /// The directory's own order is the order the findings were made in.
    static func sorted(_ users: [User], by sort: UserSort) -> [User] {
        guard sort != .directory else { return users }
        let keyed: [(key: String, user: User)] = users.map { user in
            switch sort {
            case .name, .nameDescending: (ReviewFold.key(user.name), user)
            case .email, .emailDescending: (ReviewFold.key(user.email), user)
            case .createdAt, .createdAtDescending, .directory: ("", user)
            }
        }
        let descending = sort == .nameDescending || sort == .emailDescending || sort == .createdAtDescending
        return keyed.sorted { a, b in
            if a.key != b.key { return descending ? a.key > b.key : a.key < b.key }
            if a.user.createdAt != b.user.createdAt { return descending ? a.user.createdAt > b.user.createdAt : a.user.createdAt < b.user.createdAt }
            return a.user.id < b.user.id
        }.map(\.user)
    }
}
