import Foundation
import RosterKit

/// The Roster API's group writes. A membership or a group's name is part of its members'
/// stored JSON, so every change to either rewrites theirs in the same transaction: no reader
/// ever sees a user with old groups.
extension RowStore {
    func createGroup(_ draft: GroupDraft, at now: Date) async throws -> Group {
        let milliseconds = Milliseconds.of(now)
        return try await writeRows { rows in try await Self.insertGroup(named: draft.name, atMilliseconds: milliseconds, rows: rows).group }
    }

    /// A group create sent with an `Idempotency-Key` (`KeyedCreate`).
    func createGroup(_ draft: GroupDraft, at now: Date, idempotency request: IdempotentRequest) async throws -> CreateResult<Group> {
        try await create(idempotency: request, at: now, response: { JSONResponse.bytes(of: APIResponse.success($0)) }) { rows, milliseconds in
            try await Self.insertGroup(named: draft.name, atMilliseconds: milliseconds, rows: rows).group
        }
    }

    /// A new group with no members, in the caller's transaction (a Roster API or SCIM create).
    /// - Throws: `groupNameTaken`.
    static func insertGroup(named name: String, atMilliseconds milliseconds: Int64, rows: Rows) async throws -> (seq: Int64, group: Group) {
        let group = try await FreshID.insert(atMilliseconds: milliseconds) { id in
            Group(id: id, name: name, memberCount: 0, createdAt: Milliseconds.date(milliseconds), updatedAt: Milliseconds.date(milliseconds))
        } insert: { group in
            try await rows.insert(group)
        }
        guard let inserted = try await rows.group(id: group.id) else { throw StoreError.groupNotFound }
        try await audit(rows, at: group.createdAt, resource: "group", id: group.id, action: "create",
                        changes: [FieldChange(field: "name", before: nil, after: name)])
        return inserted
    }

    /// Renames a group; its members' stored JSON carries the new name from the same commit.
    func renameGroup(id: String, to draft: GroupDraft, at now: Date) async throws -> Group {
        try await writeRows { rows in
            guard let (seq, group) = try await rows.group(id: id) else { throw StoreError.groupNotFound }
            try await Self.rename(groupSeq: seq, group, to: draft.name, at: Milliseconds.of(now), rows: rows)
            try await Self.audit(rows, at: now, resource: "group", id: id, action: "update", changes: FieldChange.diff(name: group.name, draft.name))
            return try await Self.group(seq: seq, rows: rows)
        }
    }

    /// Renames the group unless it has the name already, and rewrites its members' stored JSON.
    /// - Throws: `groupNameTaken`.
    static func rename(groupSeq seq: Int64, _ group: Group, to name: String, at milliseconds: Int64, rows: Rows) async throws {
        guard name != group.name else { return }
        let updatedAt = Milliseconds.date(max(milliseconds, Milliseconds.of(group.createdAt)))
        try await rows.rename(groupSeq: seq, to: name, updatedAt: updatedAt)
        try await rows.refreshJSON(userSeqs: rows.memberSeqs(ofGroupSeq: seq))
    }

    /// Removes a group and, in the same transaction, its memberships (ON DELETE CASCADE) and
    /// itself from its members' stored JSON. Answers with the group as it was.
    func deleteGroup(id: String, at now: Date) async throws -> Group {
        try await writeRows { rows in
            guard let (seq, group) = try await rows.group(id: id) else { throw StoreError.groupNotFound }
            try await Self.deleteGroup(seq: seq, rows: rows)
            try await Self.audit(rows, at: now, resource: "group", id: id, action: "delete", changes: FieldChange.diff(name: group.name, nil))
            return group
        }
    }

    static func deleteGroup(seq: Int64, rows: Rows) async throws {
        let members = try await rows.memberSeqs(ofGroupSeq: seq)
        try await rows.deleteGroup(seq: seq)
        try await rows.refreshJSON(userSeqs: members)
    }

    /// Puts one user in or out of a group; doing it twice changes nothing the second time.
    /// - Throws: `groupNotFound`, or `notFound` when no user has that id.
    func setMembership(of userID: String, in groupID: String, isMember: Bool, at now: Date) async throws -> Group {
        try await writeRows { rows in
            guard let (groupSeq, group) = try await rows.group(id: groupID) else { throw StoreError.groupNotFound }
            guard let userSeq = try await rows.userSeqs(ofIDs: [userID])[userID] else { throw StoreError.notFound }
            let changed = isMember
                ? try await rows.add(userSeqs: [userSeq], toGroupSeq: groupSeq)
                : try await rows.remove(userSeqs: [userSeq], fromGroupSeq: groupSeq)
            try await Self.membersChanged(changed, groupSeq: groupSeq, at: now, rows: rows)
            if !changed.isEmpty {
                let added = isMember ? [userID] : [], removed = isMember ? [] : [userID]
                try await Self.audit(rows, at: now, resource: "group", id: groupID, action: "members",
                                     changes: FieldChange.members(added: added, removed: removed))
                try await Self.auditMemberships(rows, at: now, group: group.name, added: added, removed: removed)
            }
            return try await Self.group(seq: groupSeq, rows: rows)
        }
    }

    /// Adds and removes many users in one transaction: all of it, or (an unknown id) none.
    /// - Throws: `groupNotFound`; `unknownUsers` naming every id no user has.
    func changeMembers(of groupID: String, _ change: MembershipChange, at now: Date) async throws -> Group {
        try await writeRows { rows in
            guard let (groupSeq, group) = try await rows.group(id: groupID) else { throw StoreError.groupNotFound }
            let known = try await rows.userSeqs(ofIDs: change.add + change.remove)
            var unknown: [FieldError] = []
            let additions = Self.seqs(of: change.add, in: known, unknown: &unknown) { "add[\($0)]" }
            let removals = Self.seqs(of: change.remove, in: known, unknown: &unknown) { "remove[\($0)]" }
            guard unknown.isEmpty else { throw StoreError.unknownUsers(unknown) }
            // No id is in both lists (the body is refused otherwise), so the order is free.
            let added = try await rows.add(userSeqs: additions, toGroupSeq: groupSeq)
            let removed = try await rows.remove(userSeqs: removals, fromGroupSeq: groupSeq)
            try await Self.membersChanged(added + removed, groupSeq: groupSeq, at: now, rows: rows)
            if !(added.isEmpty && removed.isEmpty) {
                let addedIDs = Self.ids(of: added, in: known), removedIDs = Self.ids(of: removed, in: known)
                try await Self.audit(rows, at: now, resource: "group", id: groupID, action: "members",
                                     changes: FieldChange.members(added: addedIDs, removed: removedIDs))
                try await Self.auditMemberships(rows, at: now, group: group.name, added: addedIDs, removed: removedIDs)
            }
            return try await Self.group(seq: groupSeq, rows: rows)
        }
    }

    /// A membership change in each member's own history too (`member_of`, the group's name
    /// before or after), so a user's entries (`resource=user`, what `h` in Roster reads) show
    /// every group they were put in or taken out of, not only the group's entry.
    static func auditMemberships(_ rows: Rows, at now: Date, group name: String, added: [String], removed: [String]) async throws {
        for id in added {
            try await audit(rows, at: now, resource: "user", id: id, action: "members", changes: [FieldChange(field: "member_of", before: nil, after: name)])
        }
        for id in removed {
            try await audit(rows, at: now, resource: "user", id: id, action: "members", changes: [FieldChange(field: "member_of", before: name, after: nil)])
        }
    }

    /// The `seq`s of `ids` as `known` has them; each id it lacks adds an error to `unknown`,
    /// for the field `field` names from the id's place.
    static func seqs(of ids: [String], in known: [String: Int64], unknown: inout [FieldError], field: (Int) -> String) -> [Int64] {
        ids.enumerated().compactMap { index, id in
            guard let seq = known[id] else {
                unknown.append(FieldError(field: field(index), message: "No user has the id “\(id.prefix(100))”."))
                return nil
            }
            return seq
        }
    }

    /// After members changed: the group's `updated_at` and SCIM version move, and the changed
    /// users' stored JSON is rewritten. Nothing when no one changed.
    static func membersChanged(_ userSeqs: [Int64], groupSeq: Int64, at now: Date, rows: Rows) async throws {
        guard !userSeqs.isEmpty else { return }
        try await rows.touch(groupSeq: groupSeq, at: now)
        try await rows.refreshJSON(userSeqs: userSeqs.sorted())
    }

    /// The ids of `seqs` as `known` (id → seq) has them, in the order of `seqs`.
    static func ids(of seqs: [Int64], in known: [String: Int64]) -> [String] {
        let bySeq = Dictionary(known.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return seqs.compactMap { bySeq[$0] }
    }

    static func group(seq: Int64, rows: Rows) async throws -> Group {
        guard let group = try await rows.group(seq: seq) else { throw StoreError.groupNotFound }
        return group
    }
}
