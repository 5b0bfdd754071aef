import Foundation
import RosterKit

/// The in-memory directory's groups, with roster-server's semantics: names unique in any case
/// and validated, search by name, sort with id tie-break, paging, membership changes that are
/// idempotent and all-or-nothing, and every member's `groups` kept in step.
extension InMemoryDirectory {
    // MARK: Knobs

    /// Stores groups named `names` (ids `group-001`…), with no members.
    @discardableResult
    public func insertGroups(named names: [String]) -> [Group] {
        names.map { name in
            let group = makeGroup(name)
            groups[group.id] = group
            memberships[group.id] = []
            return group
        }
    }

    /// Puts users in a group directly, as another client would.
    public func insertMembers(_ userIDs: [String], into groupID: String) {
        _ = try? apply(MembershipChange(add: userIDs), to: groupID)
    }

    public func storedGroup(id: String) -> Group? { groups[id] }

    public func memberIDs(of groupID: String) -> [String] { memberships[groupID] ?? [] }

    // MARK: Groups

    public func listGroups(_ query: GroupQuery) async throws -> Page<Group> {
        calls.append(.listGroups(query))
        try await prepare(.listGroups)
        let matching = groups.values.filter { group in
            guard let search = query.search, !search.isEmpty else { return true }
            return group.name.range(of: search, options: .caseInsensitive) != nil
        }.sorted(by: Self.groupOrdering(query.sort))
        let start = (query.page - 1) * query.perPage
        let items = start < matching.count ? Array(matching[start..<min(matching.count, start + query.perPage)]) : []
        return Page(items: items, page: query.page, perPage: query.perPage, total: matching.count)
    }

    public func group(id: String) async throws -> Group {
        calls.append(.getGroup(id: id))
        try await prepare(.getGroup)
        return try existingGroup(id)
    }

    public func createGroup(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        calls.append(.createGroup(draft))
        idempotencyKeys.append(idempotencyKey)
        try await prepare(.createGroup)
        let draft = try validated(draft, excluding: nil)
        let group = makeGroup(draft.name)
        groups[group.id] = group
        memberships[group.id] = []
        return group
    }

    public func renameGroup(id: String, to draft: GroupDraft) async throws -> Group {
        calls.append(.renameGroup(id: id, draft))
        try await prepare(.renameGroup)
        var group = try existingGroup(id)
        group.name = try validated(draft, excluding: id).name
        group.updatedAt = tick()
        groups[id] = group
        for userID in memberships[id] ?? [] { rewriteGroups(of: userID) }
        return group
    }

    public func deleteGroup(id: String) async throws {
        calls.append(.deleteGroup(id: id))
        try await prepare(.deleteGroup)
        _ = try existingGroup(id)
        let members = memberships[id] ?? []
        groups[id] = nil
        memberships[id] = nil
        for userID in members { rewriteGroups(of: userID) }
    }

    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> {
        calls.append(.members(groupID: groupID, query))
        try await prepare(.members)
        _ = try existingGroup(groupID)
        let members = (memberships[groupID] ?? []).compactMap { users[$0] }
            .filter { Self.matches($0, search: query.search) }
            .sorted(by: Self.ordering(query.sort))
        let start = (query.page - 1) * query.perPage
        let items = start < members.count ? Array(members[start..<min(members.count, start + query.perPage)]) : []
        return Page(items: items, page: query.page, perPage: query.perPage, total: members.count)
    }

    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        calls.append(.changeMembers(groupID: groupID, change))
        try await prepare(.changeMembers)
        return try apply(change, to: groupID)
    }

    // MARK: Semantics shared with the server

    private func apply(_ change: MembershipChange, to groupID: String) throws -> Group {
        var group = try existingGroup(groupID)
        let unknown = (change.add + change.remove).filter { users[$0] == nil }
            .map { FieldError(field: "add", message: "No user has the id \($0).") }
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
        for id in Set(before).symmetricDifference(members) { rewriteGroups(of: id) }
        return group
    }

    /// The user's `groups` as their memberships say, sorted by name.
    private func rewriteGroups(of userID: String) {
        guard var user = users[userID] else { return }
        user.groups = memberships.filter { $0.value.contains(userID) }.compactMap { groups[$0.key]?.reference }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
        users[userID] = user
    }

    private func existingGroup(_ id: String) throws -> Group {
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
        let id = "group-" + String(format: "%03d", nextGroupID)
        nextGroupID += 1
        let at = tick()
        return Group(id: id, name: name, memberCount: 0, createdAt: at, updatedAt: at)
    }

    private func tick() -> Date {
        now += 1
        return now
    }

    static func groupOrdering(_ sort: GroupSort) -> (Group, Group) -> Bool {
        func by<Key: Comparable>(_ key: @escaping (Group) -> Key, descending: Bool) -> (Group, Group) -> Bool {
            Self.by(key, descending: descending, id: \.id)
        }
        switch sort {
        case .name: return by({ $0.name.lowercased() }, descending: false)
        case .nameDescending: return by({ $0.name.lowercased() }, descending: true)
        case .createdAt: return by({ $0.createdAt }, descending: false)
        case .createdAtDescending: return by({ $0.createdAt }, descending: true)
        }
    }
}
