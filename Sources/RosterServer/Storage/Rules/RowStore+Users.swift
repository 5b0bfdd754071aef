import Foundation
import RosterKit

/// The Roster API's user writes. Drafts arrive validated and normalized; the store decides
/// only what the database must decide: whether the id exists and whether the email is free.
extension RowStore {
    func create(_ draft: UserDraft, at now: Date) async throws -> User {
        let milliseconds = Milliseconds.of(now)
        return try await writeRows { rows in try await Self.insertUser(draft, atMilliseconds: milliseconds, rows: rows) }
    }

    /// A create sent with an `Idempotency-Key` (`KeyedCreate`).
    func create(_ draft: UserDraft, at now: Date, idempotency request: IdempotentRequest) async throws -> CreateResult<User> {
        try await create(idempotency: request, at: now, response: { UserJSON.envelope($0) }) { rows, milliseconds in
            try await Self.insertUser(draft, atMilliseconds: milliseconds, rows: rows)
        }
    }

    private static func insertUser(_ draft: UserDraft, atMilliseconds milliseconds: Int64, rows: Rows) async throws -> User {
        let user = try await FreshID.insert(atMilliseconds: milliseconds) { id in
            User(
                id: id, name: draft.name, email: draft.email, role: draft.role ?? .member, status: draft.status ?? .active,
                createdAt: Milliseconds.date(milliseconds), updatedAt: Milliseconds.date(milliseconds))
        } insert: { user in
            try await refusingTakenEmail { try await rows.insert(user, scim: nil) }
        }
        try await audit(rows, at: user.createdAt, resource: "user", id: user.id, action: "create", changes: FieldChange.diff(nil, user))
        return user
    }

    /// Runs a Roster API write of a user. The email stands for the userName of a user without
    /// one, so a userName taken by the email is a taken email.
    private static func refusingTakenEmail<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch StoreError.userNameTaken {
            throw StoreError.emailTaken
        }
    }

    /// Changes the user unless `ifMatch` (an `If-Match` header) names a version other than
    /// theirs (`versionMismatch`): read, compared and written in one transaction. `updated_at`
    /// moves forward by at least a millisecond, so each change has a version of its own.
    func update(id: String, with draft: UserDraft, ifMatch: String?, at now: Date) async throws -> User {
        try await writeRows { rows in
            guard let (seq, current) = try await rows.user(id: id) else { throw StoreError.notFound }
            try ETag.check(ifMatch: ifMatch, version: current.entityTag)
            var user = current
            user.name = draft.name
            user.email = draft.email
            user.role = draft.role ?? user.role
            user.status = draft.status ?? user.status
            user.updatedAt = Milliseconds.date(max(
                Milliseconds.of(now), Milliseconds.of(user.createdAt), Milliseconds.of(current.updatedAt) + 1))
            try await Self.refusingTakenEmail { try await rows.update(user, seq: seq, scim: nil) }
            try await rows.followSCIMDocument(of: user)
            try await Self.audit(rows, at: now, resource: "user", id: id, action: "update", changes: FieldChange.diff(current, user))
            return user
        }
    }

    /// Removes the user unless `ifMatch` names a version other than theirs (`versionMismatch`),
    /// compared in the same transaction; their memberships go with them (ON DELETE CASCADE).
    /// A user already gone is `notFound` whatever `ifMatch` says: a retried delete that landed.
    func delete(id: String, ifMatch: String?, at now: Date) async throws -> User {
        try await writeRows { rows in
            guard let (seq, user) = try await rows.user(id: id) else { throw StoreError.notFound }
            try ETag.check(ifMatch: ifMatch, version: user.entityTag)
            try await rows.deleteUser(seq: seq)
            try await Self.audit(rows, at: now, resource: "user", id: id, action: "delete", changes: FieldChange.diff(user, nil))
            return user
        }
    }
}
