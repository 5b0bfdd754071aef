import Foundation
import PostgresNIO
import RosterKit

/// Groups and memberships on PostgreSQL, in the same transactions and generation as the users
/// (a membership changes the users' stored JSON, and so their cached lists).
extension PostgresStore {
    func groups(_ query: GroupQuery) async throws -> Page<Group> {
        let (product, overflow) = (query.page - 1).multipliedReportingOverflow(by: query.perPage)
        let offset = overflow ? Int(Int32.max) : max(0, product)
        let search = query.search.map(SortKey.of) ?? ""
        let order = GroupListPlan.orderBy(query.sort)
        return try await readOnly { connection in
            let condition: PostgresQuery
            if search.isEmpty {
                condition = "true"
            } else if search.unicodeScalars.contains(where: UserValidation.isForbiddenInText) {
                condition = "false" // no name holds a control character
            } else {
                condition = "strpos(groups.name_key, \(search)) > 0"
            }
            var total = 0
            let counted = PostgresQuery(unsafeSQL: "SELECT count(*) FROM groups WHERE \(condition.sql)", binds: condition.binds)
            for try await count in try await connection.query(counted, logger: self.logger).decode(Int64.self) { total = Int(count) }
            var binds = condition.binds
            binds.append(query.perPage)
            binds.append(offset)
            let page = PostgresQuery(unsafeSQL: """
                SELECT \(PostgresGroupRows.columns), groups.seq FROM groups WHERE \(condition.sql)
                ORDER BY \(order) LIMIT $\(binds.count - 1) OFFSET $\(binds.count)
                """, binds: binds)
            let items = try await PostgresGroupRows.fetchAll(page, on: connection, logger: self.logger).map(\.group)
            return Page(items: items, page: query.page, perPage: query.perPage, total: total)
        }
    }

    func group(id: String) async throws -> Group {
        let found = try await database.client.withConnection { connection in
            try await PostgresGroupRows.fetchWithSeq(id: id, on: connection, logger: self.logger)?.group
        }
        guard let found else { throw StoreError.groupNotFound }
        return found
    }

    func createGroup(_ draft: GroupDraft, at now: Date) async throws -> Group {
        let milliseconds = Milliseconds.of(now)
        return try await write { connection in try await self.insertGroup(named: draft.name, atMilliseconds: milliseconds, on: connection) }
    }

    func createGroup(_ draft: GroupDraft, at now: Date, idempotency request: IdempotentRequest) async throws -> CreateResult<Group> {
        let milliseconds = Milliseconds.of(now)
        return try await write { connection in
            try await self.keyedCreate(request, atMilliseconds: milliseconds, on: connection) {
                let group = try await self.insertGroup(named: draft.name, atMilliseconds: milliseconds, on: connection)
                return (group, IdempotentAnswer(resourceID: group.id, response: JSONResponse.bytes(of: APIResponse.success(group))))
            }
        }
    }

    /// A new group with no members, in the caller's transaction (a Roster API or SCIM create).
    func insertGroup(named name: String, atMilliseconds milliseconds: Int64, on connection: PostgresConnection) async throws -> Group {
        // Group ids have the user ids' form; a collision draws again.
        while true {
            let group = Group(
                id: UserID.make(milliseconds: milliseconds), name: name, memberCount: 0,
                createdAt: Milliseconds.date(milliseconds), updatedAt: Milliseconds.date(milliseconds))
            if try await PostgresGroupRows.insert(group, on: connection, logger: logger) { return group }
        }
    }

    /// Renames a group; its members' stored JSON carries the new name from the same commit.
    func renameGroup(id: String, to draft: GroupDraft, at now: Date) async throws -> Group {
        try await write { connection in
            guard let (seq, group) = try await PostgresGroupRows.fetchWithSeq(id: id, on: connection, logger: self.logger) else {
                throw StoreError.groupNotFound
            }
            guard draft.name != group.name else { return group }
            let updatedAt = Milliseconds.date(max(Milliseconds.of(now), Milliseconds.of(group.createdAt)))
            try await PostgresGroupRows.rename(seq: seq, to: draft.name, updatedAt: updatedAt, on: connection, logger: self.logger)
            let members = try await PostgresMemberships.userSeqs(ofGroupSeq: seq, on: connection, logger: self.logger)
            try await PostgresUserRows.refreshJSON(userSeqs: members, on: connection, logger: self.logger)
            return try await self.group(seq: seq, on: connection)
        }
    }

    /// Removes a group, its memberships (ON DELETE CASCADE) and itself from its members' stored
    /// JSON, in one transaction. Answers with the group as it was.
    func deleteGroup(id: String) async throws -> Group {
        try await write { connection in
            guard let (seq, group) = try await PostgresGroupRows.fetchWithSeq(id: id, on: connection, logger: self.logger) else {
                throw StoreError.groupNotFound
            }
            let members = try await PostgresMemberships.userSeqs(ofGroupSeq: seq, on: connection, logger: self.logger)
            try await connection.query("DELETE FROM groups WHERE seq = \(seq)", logger: self.logger)
            try await PostgresUserRows.refreshJSON(userSeqs: members, on: connection, logger: self.logger)
            return group
        }
    }

    /// Puts one user in or out of a group; doing it twice changes nothing the second time.
    func setMembership(of userID: String, in groupID: String, isMember: Bool, at now: Date) async throws -> Group {
        try await write { connection in
            guard let (groupSeq, _) = try await PostgresGroupRows.fetchWithSeq(id: groupID, on: connection, logger: self.logger) else {
                throw StoreError.groupNotFound
            }
            guard let userSeq = try await PostgresUserRows.seqs(ofIDs: [userID], on: connection, logger: self.logger)[userID] else {
                throw StoreError.notFound
            }
            let changed = isMember
                ? try await PostgresMemberships.add(userSeq: userSeq, toGroupSeq: groupSeq, on: connection, logger: self.logger)
                : try await PostgresMemberships.remove(userSeq: userSeq, fromGroupSeq: groupSeq, on: connection, logger: self.logger)
            if changed {
                try await PostgresGroupRows.touch(seq: groupSeq, at: now, on: connection, logger: self.logger)
                try await PostgresUserRows.refreshJSON(userSeqs: [userSeq], on: connection, logger: self.logger)
            }
            return try await self.group(seq: groupSeq, on: connection)
        }
    }

    /// Adds and removes many users in one transaction: all of it, or (an unknown id) none.
    func changeMembers(of groupID: String, _ change: MembershipChange, at now: Date) async throws -> Group {
        try await write { connection in
            guard let (groupSeq, _) = try await PostgresGroupRows.fetchWithSeq(id: groupID, on: connection, logger: self.logger) else {
                throw StoreError.groupNotFound
            }
            let known = try await PostgresUserRows.seqs(ofIDs: change.add + change.remove, on: connection, logger: self.logger)
            var unknown: [FieldError] = []
            func seqs(_ ids: [String], field: String) -> [Int64] {
                ids.enumerated().compactMap { index, id in
                    guard let seq = known[id] else {
                        unknown.append(FieldError(field: "\(field)[\(index)]", message: "No user has the id “\(id.prefix(100))”."))
                        return nil
                    }
                    return seq
                }
            }
            let additions = seqs(change.add, field: "add")
            let removals = seqs(change.remove, field: "remove")
            guard unknown.isEmpty else { throw StoreError.unknownUsers(unknown) }

            // No id is in both lists (the body is refused otherwise), so the order is free.
            var changed = Set<Int64>()
            for seq in additions {
                if try await PostgresMemberships.add(userSeq: seq, toGroupSeq: groupSeq, on: connection, logger: self.logger) {
                    changed.insert(seq)
                }
            }
            for seq in removals {
                if try await PostgresMemberships.remove(userSeq: seq, fromGroupSeq: groupSeq, on: connection, logger: self.logger) {
                    changed.insert(seq)
                }
            }
            if !changed.isEmpty {
                try await PostgresGroupRows.touch(seq: groupSeq, at: now, on: connection, logger: self.logger)
                try await PostgresUserRows.refreshJSON(userSeqs: changed.sorted(), on: connection, logger: self.logger)
            }
            return try await self.group(seq: groupSeq, on: connection)
        }
    }

    private func group(seq: Int64, on connection: PostgresConnection) async throws -> Group {
        guard let group = try await PostgresGroupRows.fetch(seq: seq, on: connection, logger: logger) else {
            throw StoreError.groupNotFound
        }
        return group
    }
}
