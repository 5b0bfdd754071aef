import Foundation
import RosterKit

/// A `Directory` held in memory, with the server's semantics (search, sort with id tie-break,
/// paging, validation, unique emails and group names, membership kept in step on both sides)
/// and knobs for tests: per-call delays on an injected clock, scripted failures, calls held
/// until a test releases them, and a record of every call. Users here; groups in
/// InMemoryDirectory+Groups.swift.
public actor InMemoryDirectory: Directory {
    public enum Operation: Sendable, Hashable {
        // Users
        case list, get, create, update, delete
        // Groups
        case listGroups, getGroup, createGroup, renameGroup, deleteGroup, members, changeMembers
        // The help desk's actions
        case resetPassword, unlock
    }

    public enum Call: Sendable, Equatable {
        case list(UserQuery)
        case get(id: String)
        case create(UserDraft)
        case update(id: String, UserDraft)
        case delete(id: String)
        case listGroups(GroupQuery)
        case getGroup(id: String)
        case createGroup(GroupDraft)
        case renameGroup(id: String, GroupDraft)
        case deleteGroup(id: String)
        case members(groupID: String, UserQuery)
        case changeMembers(groupID: String, MembershipChange)
        /// A reset, without the password (which stays in `passwords`).
        case resetPassword(id: String, mustChange: Bool)
        case unlock(id: String)

        public var operation: Operation {
            switch self {
            case .list: .list
            case .get: .get
            case .create: .create
            case .update: .update
            case .delete: .delete
            case .listGroups: .listGroups
            case .getGroup: .getGroup
            case .createGroup: .createGroup
            case .renameGroup: .renameGroup
            case .deleteGroup: .deleteGroup
            case .members: .members
            case .changeMembers: .changeMembers
            case .resetPassword: .resetPassword
            case .unlock: .unlock
            }
        }
    }

    var users: [String: User]
    var groups: [String: Group] = [:]
    /// Member ids of each group, in the order they joined.
    var memberships: [String: [String]] = [:]
    var nextGroupID = 1
    /// Each user's password as last reset, and whether it must be changed at the next logon.
    public internal(set) var passwords: [String: (password: String, mustChange: Bool)] = [:]
    private var nextID: Int
    private var failures: [(operation: Operation?, error: APIError)] = []
    private var delays: [Operation: Duration] = [:]
    private var listDelay: (@Sendable (UserQuery) -> Duration)?
    private var holds: [(operation: Operation?, gate: CallGate)] = []
    let clock: any Clock<Duration>
    var now: Date

    /// Every call, in the order they arrived (before any delay or failure).
    public internal(set) var calls: [Call] = []
    /// The idempotency key of every create call, in order.
    public internal(set) var idempotencyKeys: [String] = []
    /// Creates that succeeded, by key: sent again with the same key and draft, the first
    /// answer comes back (as roster-server does).
    private var createdByKey: [String: (draft: UserDraft, user: User)] = [:]

    /// - Parameters:
    ///   - users: the directory's contents, stored as given (not validated: tests may need
    ///     names no server would accept). The groups they name exist, with them as members.
    ///   - clock: where delays are slept.
    public init(users: [User] = [], clock: any Clock<Duration> = ContinuousClock(), now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.users = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        self.nextID = users.count + 1
        self.clock = clock
        self.now = now
        for user in users {
            for reference in user.groups {
                if groups[reference.id] == nil {
                    groups[reference.id] = Group(id: reference.id, name: reference.name, memberCount: 0, createdAt: now, updatedAt: now)
                }
                if memberships[reference.id, default: []].contains(user.id) == false {
                    memberships[reference.id, default: []].append(user.id)
                    groups[reference.id]?.memberCount += 1
                }
            }
        }
    }

    /// A directory of `count` generated users, `user-000001`… named "User 1"….
    public init(generatedCount count: Int, clock: any Clock<Duration> = ContinuousClock()) {
        self.init(users: (1...max(1, count)).prefix(count).map { User.fixture(number: $0) }, clock: clock)
    }

    // MARK: Knobs

    /// Answer as a SCIM service without `totalResults` does: the total is only what was seen
    /// plus one, marked as a lower bound, until a page comes back short.
    public func hideTotals() { hidesTotals = true }
    private var hidesTotals = false

    /// What `traits()` answers: a SCIM service that cannot sort, say.
    public func setTraits(_ traits: DirectoryTraits) { configuredTraits = traits }
    private var configuredTraits = DirectoryTraits.rosterAPI
    public func traits() async -> DirectoryTraits { configuredTraits }

    /// The next call of `operation` (any operation when nil) fails with `error`, once.
    /// Several scripted failures are used in order.
    public func failNext(_ operation: Operation? = nil, with error: APIError, times: Int = 1) {
        for _ in 0..<times { failures.append((operation, error)) }
    }

    /// Every call of `operation` sleeps this long on the clock before answering.
    public func setDelay(_ delay: Duration, for operation: Operation) {
        delays[operation] = delay
    }

    /// Every list call sleeps for what `delay` says of its query (overrides `setDelay(_:for: .list)`).
    public func setListDelay(_ delay: @escaping @Sendable (UserQuery) -> Duration) {
        listDelay = delay
    }

    /// The next call of `operation` (any operation when nil) waits until the returned gate is
    /// opened, then answers (or fails, if a failure is scripted) even if it was cancelled
    /// meanwhile: an answer already on the wire. A held call skips any delay. Several holds
    /// are used in order.
    @discardableResult
    public func holdNext(_ operation: Operation? = nil) -> CallGate {
        let gate = CallGate()
        holds.append((operation, gate))
        return gate
    }

    public func callCount(_ operation: Operation) -> Int {
        calls.filter { $0.operation == operation }.count
    }

    public func listCalls() -> [UserQuery] {
        calls.compactMap { if case .list(let query) = $0 { query } else { nil } }
    }

    public var count: Int { users.count }

    public func storedUser(id: String) -> User? { users[id] }

    /// Stores a user directly, as if another client had made it.
    public func insert(_ user: User) { users[user.id] = user }

    /// Removes a user directly, as if another client had deleted it.
    public func remove(id: String) { users[id] = nil }

    // MARK: Users

    public func listUsers(_ query: UserQuery) async throws -> Page<User> {
        calls.append(.list(query))
        try await prepare(.list, delay: listDelay?(query))
        guard UserQuery.perPageRange.contains(query.perPage), query.page >= 1 else {
            throw APIError.badRequest(ErrorBody(code: "bad_query", message: "page must be ≥ 1 and per_page 1…200."))
        }
        let matching = users.values.filter { user in
            (query.role.map { $0 == user.role } ?? true)
                && (query.status.map { $0 == user.status } ?? true)
                && (query.group.map { group in user.groups.contains { $0.id == group } } ?? true)
                && Self.matches(user, search: query.search)
        }.sorted(by: Self.ordering(query.sort))
        let start = (query.page - 1) * query.perPage
        let items = start < matching.count ? Array(matching[start..<min(matching.count, start + query.perPage)]) : []
        guard hidesTotals else {
            return Page(items: items, page: query.page, perPage: query.perPage, total: matching.count)
        }
        let seen = start + items.count
        let ended = items.count < query.perPage
        var page = Page(items: items, page: query.page, perPage: query.perPage, total: ended ? seen : seen + 1)
        page.totalIsLowerBound = !ended
        return page
    }

    public func user(id: String) async throws -> User {
        calls.append(.get(id: id))
        try await prepare(.get)
        guard let user = users[id] else { throw Self.notFound }
        return user
    }

    public func createUser(_ draft: UserDraft, idempotencyKey: String) async throws -> User {
        calls.append(.create(draft))
        idempotencyKeys.append(idempotencyKey)
        try await prepare(.create)
        if let first = createdByKey[idempotencyKey] {
            guard first.draft == draft else {
                throw APIError.validationFailed(ErrorBody(code: "idempotency_key_reused", message: "This idempotency key was used for another request."))
            }
            return first.user
        }
        let sent = draft
        let draft = try validated(draft, excluding: nil)
        let id = String(format: "user-%06d", nextID)
        nextID += 1
        now += 1
        var user = User(id: id, name: draft.name, email: draft.email, role: draft.role ?? .member,
                        status: draft.status ?? .active, createdAt: now, updatedAt: now)
        apply(draft.attributes, to: &user)
        users[id] = user
        createdByKey[idempotencyKey] = (sent, user)
        return user
    }

    public func updateUser(id: String, with draft: UserDraft) async throws -> User {
        calls.append(.update(id: id, draft))
        try await prepare(.update)
        guard var user = users[id] else { throw Self.notFound }
        let draft = try validated(draft, excluding: id)
        now += 1
        user.name = draft.name
        user.email = draft.email
        user.role = draft.role ?? user.role
        user.status = draft.status ?? user.status
        apply(draft.attributes, to: &user)
        user.updatedAt = now
        users[id] = user
        return user
    }

    /// The attributes the traits name, as a directory that has them keeps them: an empty
    /// value clears one; one the traits do not name is not kept (as the Roster API drops it).
    private func apply(_ attributes: [UserAttribute: String], to user: inout User) {
        for (attribute, value) in attributes where configuredTraits.attributes.contains(attribute) {
            user.attributes[attribute] = value.isEmpty ? nil : value
        }
    }

    public func deleteUser(id: String) async throws {
        calls.append(.delete(id: id))
        try await prepare(.delete)
        guard users.removeValue(forKey: id) != nil else { throw Self.notFound }
        for (groupID, members) in memberships where members.contains(id) {
            memberships[groupID] = members.filter { $0 != id }
            groups[groupID]?.memberCount -= 1
        }
    }

    // MARK: Semantics shared with the server

    func prepare(_ operation: Operation, delay: Duration? = nil) async throws {
        if let index = holds.firstIndex(where: { $0.operation == nil || $0.operation == operation }) {
            // No cancellation check after the gate: the answer was already on its way.
            await holds.remove(at: index).gate.pass()
        } else {
            if let delay = delay ?? delays[operation], delay > .zero {
                try await clock.sleep(for: delay)
            }
            try Task.checkCancellation()
        }
        if let index = failures.firstIndex(where: { $0.operation == nil || $0.operation == operation }) {
            throw failures.remove(at: index).error
        }
    }

    private func validated(_ draft: UserDraft, excluding id: String?) throws -> UserDraft {
        let draft = UserValidation.normalized(draft)
        let problems = UserValidation.problems(in: draft)
        guard problems.isEmpty else {
            throw APIError.validationFailed(ErrorBody(code: "validation_failed", message: "Some fields are not valid.", fields: problems))
        }
        let email = draft.email.lowercased()
        if users.values.contains(where: { $0.id != id && $0.email.lowercased() == email }) {
            throw APIError.conflict(ErrorBody(
                code: "email_taken", message: "Another user already has that email.",
                fields: [FieldError(field: "email", message: "This email is already taken.")]))
        }
        return draft
    }

    static let notFound = APIError.notFound(ErrorBody(code: "not_found", message: "No user has that id."))

    static func matches(_ user: User, search: String?) -> Bool {
        guard let search, !search.isEmpty else { return true }
        return user.name.range(of: search, options: .caseInsensitive) != nil
            || user.email.range(of: search, options: .caseInsensitive) != nil
    }

    /// Orders by `key`, ties broken by id (as roster-server's lists are), for users and groups.
    static func by<Item, Key: Comparable>(_ key: @escaping (Item) -> Key, descending: Bool,
                                           id: @escaping (Item) -> String) -> (Item, Item) -> Bool {
        { lhs, rhs in
            let left = key(lhs), right = key(rhs)
            if left != right { return descending ? left > right : left < right }
            return id(lhs) < id(rhs)
        }
    }

    static func ordering(_ sort: UserSort) -> (User, User) -> Bool {
        func by<Key: Comparable>(_ key: @escaping (User) -> Key, descending: Bool) -> (User, User) -> Bool {
            Self.by(key, descending: descending, id: \.id)
        }
        switch sort {
        // roster-server's own order is its default, name ↑; this stands in for it.
        case .directory, .name: return by({ $0.name.lowercased() }, descending: false)
        case .nameDescending: return by({ $0.name.lowercased() }, descending: true)
        case .email: return by({ $0.email.lowercased() }, descending: false)
        case .emailDescending: return by({ $0.email.lowercased() }, descending: true)
        case .createdAt: return by({ $0.createdAt }, descending: false)
        case .createdAtDescending: return by({ $0.createdAt }, descending: true)
        }
    }
}
