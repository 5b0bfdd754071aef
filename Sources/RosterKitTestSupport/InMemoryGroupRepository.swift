import Foundation
import RosterKit

/// A `GroupRepository` held in memory over an `InMemoryUserRepository`, with the server's
/// semantics: names unique in any case and validated, search by name, sort with id tie-break,
/// paging, membership changes that are idempotent and all-or-nothing, and every member's
/// `groups` kept in step (as roster-server rewrites its users). Knobs as the user repository
/// has: delays on an injected clock, scripted failures, held calls, and a record of calls.
public actor InMemoryGroupRepository: GroupRepository {
    public enum Operation: Sendable, Hashable {
        case list, get, create, rename, delete, members, changeMembers
    }

    public let users: InMemoryUserRepository
    private var groups: [String: Group] = [:]
    /// Member ids of each group, in the order they joined.
    private var memberships: [String: [String]] = [:]
    private var nextID = 1
    private var now = Date(timeIntervalSince1970: 1_800_000_000)
    private let clock: any Clock<Duration>
    private var failures: [(operation: Operation?, error: APIError)] = []
    private var delays: [Operation: Duration] = [:]
    private var holds: [(operation: Operation?, gate: CallGate)] = []

    /// Every call's operation, in the order they arrived.
    public private(set) var calls: [Operation] = []
    /// The idempotency key of every create, in order.
    public private(set) var idempotencyKeys: [String] = []

    public init(users: InMemoryUserRepository, clock: any Clock<Duration> = ContinuousClock()) {
        self.users = users
        self.clock = clock
    }

    // MARK: Knobs

    /// Stores groups named `names` (ids `group-001`…), with no members.
    @discardableResult
    public func insert(named names: [String]) -> [Group] {
        names.map { name in
            let group = makeGroup(name)
            groups[group.id] = group
            memberships[group.id] = []
            return group
        }
    }

    /// Puts users in a group directly, as another client would.
    public func insertMembers(_ userIDs: [String], into groupID: String) async {
        _ = try? await apply(MembershipChange(add: userIDs), to: groupID)
    }

    public func failNext(_ operation: Operation? = nil, with error: APIError, times: Int = 1) {
        for _ in 0..<times { failures.append((operation, error)) }
    }

    public func setDelay(_ delay: Duration, for operation: Operation) {
        delays[operation] = delay
    }

    @discardableResult
    public func holdNext(_ operation: Operation? = nil) -> CallGate {
        let gate = CallGate()
        holds.append((operation, gate))
        return gate
    }

    public func callCount(_ operation: Operation) -> Int {
        calls.filter { $0 == operation }.count
    }

    public func group(id: String) -> Group? { groups[id] }

    public func memberIDs(of groupID: String) -> [String] { memberships[groupID] ?? [] }

    // MARK: GroupRepository

    public func list(_ query: GroupQuery) async throws -> Page<Group> {
        try await prepare(.list)
        let matching = groups.values.filter { group in
            guard let search = query.search, !search.isEmpty else { return true }
            return group.name.range(of: search, options: .caseInsensitive) != nil
        }.sorted(by: Self.ordering(query.sort))
        let start = (query.page - 1) * query.perPage
        let items = start < matching.count ? Array(matching[start..<min(matching.count, start + query.perPage)]) : []
        return Page(items: items, page: query.page, perPage: query.perPage, total: matching.count)
    }

    public func get(id: String) async throws -> Group {
        try await prepare(.get)
        return try existing(id)
    }

    public func create(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        idempotencyKeys.append(idempotencyKey)
        try await prepare(.create)
        let draft = try validated(draft, excluding: nil)
        let group = makeGroup(draft.name)
        groups[group.id] = group
        memberships[group.id] = []
        return group
    }

    public func rename(id: String, to draft: GroupDraft) async throws -> Group {
        try await prepare(.rename)
        var group = try existing(id)
        group.name = try validated(draft, excluding: id).name
        group.updatedAt = tick()
        groups[id] = group
        await rewriteMembers(of: id)
        return group
    }

    public func delete(id: String) async throws {
        try await prepare(.delete)
        _ = try existing(id)
        let members = memberships[id] ?? []
        groups[id] = nil
        memberships[id] = nil
        for userID in members { await rewriteGroups(of: userID) }
    }

    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> {
        try await prepare(.members)
        _ = try existing(groupID)
        var members: [User] = []
        for id in memberships[groupID] ?? [] {
            if let user = await users.user(id: id) { members.append(user) }
        }
        members = members.filter { InMemoryUserRepository.matches($0, search: query.search) }
            .sorted(by: InMemoryUserRepository.ordering(query.sort))
        let start = (query.page - 1) * query.perPage
        let items = start < members.count ? Array(members[start..<min(members.count, start + query.perPage)]) : []
        return Page(items: items, page: query.page, perPage: query.perPage, total: members.count)
    }

    public func addMember(_ userID: String, to groupID: String) async throws -> Group {
        try await changeMembers(of: groupID, MembershipChange(add: [userID]))
    }

    public func removeMember(_ userID: String, from groupID: String) async throws -> Group {
        try await changeMembers(of: groupID, MembershipChange(remove: [userID]))
    }

    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        try await prepare(.changeMembers)
        return try await apply(change, to: groupID)
    }

    // MARK: Semantics shared with the server

    private func apply(_ change: MembershipChange, to groupID: String) async throws -> Group {
        var group = try existing(groupID)
        var unknown: [FieldError] = []
        for id in change.add + change.remove {
            if await users.user(id: id) == nil { unknown.append(FieldError(field: "add", message: "No user has the id \(id).")) }
        }
        guard unknown.isEmpty else {
            throw APIError.validationFailed(ErrorBody(code: "unknown_users", message: "Some ids are not users.", fields: unknown))
        }
        var members = memberships[groupID] ?? []
        let before = members
        members.removeAll { change.remove.contains($0) }
        for id in change.add where !members.contains(id) && !change.remove.contains(id) { members.append(id) }
        memberships[groupID] = members
        group.memberCount = members.count
        if members != before { group.updatedAt = tick() }
        groups[groupID] = group
        for id in Set(before).symmetricDifference(members) { await rewriteGroups(of: id) }
        return group
    }

    /// The user's `groups` as their memberships say, sorted by name.
    private func rewriteGroups(of userID: String) async {
        guard var user = await users.user(id: userID) else { return }
        user.groups = memberships.filter { $0.value.contains(userID) }.compactMap { groups[$0.key]?.reference }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
        await users.insert(user)
    }

    private func rewriteMembers(of groupID: String) async {
        for id in memberships[groupID] ?? [] { await rewriteGroups(of: id) }
    }

    private func existing(_ id: String) throws -> Group {
        guard let group = groups[id] else {
            throw APIError.notFound(ErrorBody(code: "group_not_found", message: "No group has that id."))
        }
        return group
    }

    private func validated(_ draft: GroupDraft, excluding id: String?) throws -> GroupDraft {
        let draft = draft.normalized
        let problems = draft.problems
        guard problems.isEmpty else {
            throw APIError.validationFailed(ErrorBody(code: "validation_failed", message: "Some fields are not valid.", fields: problems))
        }
        if groups.values.contains(where: { $0.id != id && $0.name.lowercased() == draft.name.lowercased() }) {
            throw APIError.conflict(ErrorBody(
                code: "group_name_taken", message: "Another group already has that name.",
                fields: [FieldError(field: "name", message: "This name is already taken.")]))
        }
        return draft
    }

    private func makeGroup(_ name: String) -> Group {
        let id = "group-" + String(format: "%03d", nextID)
        nextID += 1
        let at = tick()
        return Group(id: id, name: name, memberCount: 0, createdAt: at, updatedAt: at)
    }

    private func tick() -> Date {
        now += 1
        return now
    }

    private func prepare(_ operation: Operation) async throws {
        calls.append(operation)
        if let index = holds.firstIndex(where: { $0.operation == nil || $0.operation == operation }) {
            await holds.remove(at: index).gate.pass()
        } else {
            if let delay = delays[operation], delay > .zero { try await clock.sleep(for: delay) }
            try Task.checkCancellation()
        }
        if let index = failures.firstIndex(where: { $0.operation == nil || $0.operation == operation }) {
            throw failures.remove(at: index).error
        }
    }

    static func ordering(_ sort: GroupSort) -> (Group, Group) -> Bool {
        func by<Key: Comparable>(_ key: @escaping (Group) -> Key, descending: Bool) -> (Group, Group) -> Bool {
            { lhs, rhs in
                let left = key(lhs), right = key(rhs)
                if left != right { return descending ? left > right : left < right }
                return lhs.id < rhs.id
            }
        }
        switch sort {
        case .name: return by({ $0.name.lowercased() }, descending: false)
        case .nameDescending: return by({ $0.name.lowercased() }, descending: true)
        case .createdAt: return by({ $0.createdAt }, descending: false)
        case .createdAtDescending: return by({ $0.createdAt }, descending: true)
        }
    }
}
