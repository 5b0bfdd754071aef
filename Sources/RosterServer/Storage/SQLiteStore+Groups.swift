import Foundation
import GRDB
import RosterKit

/// Groups and memberships, on the same database, writer and write generation as the users
/// (a membership changes the users' JSON, and so their cached lists).
extension SQLiteStore {
    func groups(_ query: GroupQuery) async throws -> Page<Group> {
        let plan = GroupListPlan(query)
        return try read { db in
            let total = try Int.fetchOne(db.cachedStatement(sql: plan.countSQL), arguments: plan.countArguments) ?? 0
            let items = try Row.fetchAll(db.cachedStatement(sql: plan.pageSQL), arguments: plan.pageArguments)
                .map(GroupRow.group(from:))
            return Page(items: items, page: query.page, perPage: query.perPage, total: total)
        }
    }

    func group(id: String) async throws -> Group {
        guard let group = try read({ db in try GroupRow.fetchWithSeq(id: id, in: db)?.group }) else {
            throw StoreError.groupNotFound
        }
        return group
    }

    func createGroup(_ draft: GroupDraft, at now: Date) async throws -> Group {
        let milliseconds = Milliseconds.of(now)
        return try await write { db in try Self.insertGroup(named: draft.name, atMilliseconds: milliseconds, in: db) }
    }

    func createGroup(_ draft: GroupDraft, at now: Date, idempotency request: IdempotentRequest) async throws -> CreateResult<Group> {
        let milliseconds = Milliseconds.of(now)
        return try await write { db in
            try IdempotencyRecord.create(request, atMilliseconds: milliseconds, in: db) {
                let group = try Self.insertGroup(named: draft.name, atMilliseconds: milliseconds, in: db)
                return (group, IdempotentAnswer(resourceID: group.id, response: JSONResponse.bytes(of: APIResponse.success(group))))
            }
        }
    }

    /// A new group with no members, in the caller's transaction (a Roster API or SCIM create).
    /// - Throws: `StoreError.groupNameTaken`.
    static func insertGroup(named name: String, atMilliseconds milliseconds: Int64, in db: Database) throws -> Group {
        // Group ids have the user ids' form; a collision needs two creates in one millisecond
        // drawing the same 40 random bits, and then the draw is repeated.
        while true {
            let group = Group(
                id: UserID.make(milliseconds: milliseconds), name: name, memberCount: 0,
                createdAt: Milliseconds.date(milliseconds), updatedAt: Milliseconds.date(milliseconds))
            do {
                try GroupRow.insert(group, in: db)
                return group
            } catch {
                switch GroupRow.uniqueViolation(error) {
                case .name: throw StoreError.groupNameTaken
                case .id: continue
                case nil: throw error
                }
            }
        }
    }

    /// Renames a group; its members' stored JSON carries the new name from the same commit.
    func renameGroup(id: String, to draft: GroupDraft, at now: Date) async throws -> Group {
        try await write { db in
            guard let (seq, group) = try GroupRow.fetchWithSeq(id: id, in: db) else { throw StoreError.groupNotFound }
            guard draft.name != group.name else { return group }
            let updatedAt = Milliseconds.date(max(Milliseconds.of(now), Milliseconds.of(group.createdAt)))
            do {
                try GroupRow.rename(seq: seq, to: draft.name, updatedAt: updatedAt, in: db)
            } catch let error where GroupRow.uniqueViolation(error) == .name {
                throw StoreError.groupNameTaken
            }
            try StoredUserJSON.refresh(userSeqs: Memberships.userSeqs(ofGroupSeq: seq, in: db), in: db)
            return try Self.group(seq: seq, in: db)
        }
    }

    /// Removes a group and, in the same transaction, its memberships (ON DELETE CASCADE) and
    /// itself from its members' stored JSON. Answers with the group as it was.
    func deleteGroup(id: String) async throws -> Group {
        try await write { db in
            guard let (seq, group) = try GroupRow.fetchWithSeq(id: id, in: db) else { throw StoreError.groupNotFound }
            let members = try Memberships.userSeqs(ofGroupSeq: seq, in: db)
            try db.cachedStatement(sql: "DELETE FROM groups WHERE seq = ?").execute(arguments: [seq])
            try StoredUserJSON.refresh(userSeqs: members, in: db)
            return group
        }
    }

    /// Puts one user in or out of a group; doing it twice changes nothing the second time.
    /// - Throws: `groupNotFound`, or `notFound` when no user has that id.
    func setMembership(of userID: String, in groupID: String, isMember: Bool, at now: Date) async throws -> Group {
        try await write { db in
            guard let (groupSeq, _) = try GroupRow.fetchWithSeq(id: groupID, in: db) else { throw StoreError.groupNotFound }
            guard let userSeq = try UserRow.seq(id: userID, in: db) else { throw StoreError.notFound }
            let changed = isMember
                ? try Memberships.add(userSeq: userSeq, toGroupSeq: groupSeq, in: db)
                : try Memberships.remove(userSeq: userSeq, fromGroupSeq: groupSeq, in: db)
            if changed {
                try GroupRow.touch(seq: groupSeq, at: now, in: db)
                try StoredUserJSON.refresh(userSeqs: [userSeq], in: db)
            }
            return try Self.group(seq: groupSeq, in: db)
        }
    }

    /// Adds and removes many users in one transaction: all of it, or (an unknown id) none.
    /// - Throws: `groupNotFound`; `unknownUsers` naming every id no user has.
    func changeMembers(of groupID: String, _ change: MembershipChange, at now: Date) async throws -> Group {
        try await write { db in
            guard let (groupSeq, _) = try GroupRow.fetchWithSeq(id: groupID, in: db) else { throw StoreError.groupNotFound }
            var unknown: [FieldError] = []
            func seqs(_ ids: [String], field: String) throws -> [Int64] {
                try ids.enumerated().compactMap { index, id in
                    guard let seq = try UserRow.seq(id: id, in: db) else {
                        unknown.append(FieldError(field: "\(field)[\(index)]", message: "No user has the id “\(id.prefix(100))”."))
                        return nil
                    }
                    return seq
                }
            }
            let additions = try seqs(change.add, field: "add")
            let removals = try seqs(change.remove, field: "remove")
            guard unknown.isEmpty else { throw StoreError.unknownUsers(unknown) }

            // No id is in both lists (the body is refused otherwise), so the order is free.
            var changed = Set<Int64>()
            for seq in additions {
                if try Memberships.add(userSeq: seq, toGroupSeq: groupSeq, in: db) { changed.insert(seq) }
            }
            for seq in removals {
                if try Memberships.remove(userSeq: seq, fromGroupSeq: groupSeq, in: db) { changed.insert(seq) }
            }
            if !changed.isEmpty {
                try GroupRow.touch(seq: groupSeq, at: now, in: db)
                try StoredUserJSON.refresh(userSeqs: changed, in: db)
            }
            return try Self.group(seq: groupSeq, in: db)
        }
    }

    private static func group(seq: Int64, in db: Database) throws -> Group {
        guard let group = try GroupRow.fetch(seq: seq, in: db) else { throw StoreError.groupNotFound }
        return group
    }
}
