import RosterJournal
import RosterKit

/// Undoes one journal entry through the `Directory` seam, so it works on every dialect. The
/// object is read again first: if it still holds what Roster wrote, it is set back (on SCIM the
/// write carries `If-Match` with the version just read, so a change in between is a 412, and a
/// conflict); if someone changed it since, it is a conflict, left alone unless `force`.
/// Every write it makes is journalled (`undoes` the entry), so an undo can be undone.
enum UndoStep {
    /// Undoes `entry`; a 412 (changed between our read and our write) is a conflict too.
    nonisolated static func perform(
        _ entry: JournalEntry, force: Bool, directory: any Directory, recorder: ChangeRecorder, runID: String?
    ) async -> (kind: UndoOutcome.Kind, requests: Int) {
        var requests = 0
        let context = Context(entry: entry, force: force, directory: directory, recorder: recorder, runID: runID)
        do {
            return (try await context.undo(requests: &requests), requests)
        } catch let error as APIError {
            if case .preconditionFailed = error {
                return (.conflict([UndoConflict(field: "version", before: "-", roster: entry.etag ?? "-", now: "changed on the server")]), requests)
            }
            return (.failed(error), requests)
        } catch {
            return (.failed(APIError.shown(for: error) ?? .transportFailed("cancelled")), requests)
        }
    }

    private struct Context {
        var entry: JournalEntry
        var force: Bool
        var directory: any Directory
        var recorder: ChangeRecorder
        var runID: String?

        func write(_ write: ChangeRecorder.Write) -> ChangeRecorder.Write {
            var write = write
            write.undoes = entry.id
            return write
        }

        func undo(requests: inout Int) async throws -> UndoOutcome.Kind {
            guard entry.state != .failed else { return .notUndoable("it did not land") }
            switch entry.action {
            case .resetPassword: return .notUndoable("a password reset cannot be undone (no password is kept)")
            case .unlock: return .notUndoable("an unlock cannot be undone")
            case .updateUser: return try await undoUpdate(requests: &requests)
            case .createUser: return try await undoCreate(requests: &requests)
            case .deleteUser: return try await undoDelete(requests: &requests)
            case .addMember, .removeMember: return try await undoMembership(requests: &requests)
            case .createGroup: return try await undoCreateGroup(requests: &requests)
            case .renameGroup: return try await undoRename(requests: &requests)
            case .deleteGroup: return try await undoDeleteGroup(requests: &requests)
            }
        }

        /// Only the fields Roster's write changed are weighed and set back: a field someone
        /// else changed that Roster did not touch is theirs, and stays.
        private func undoUpdate(requests: inout Int) async throws -> UndoOutcome.Kind {
            guard let before = entry.before?.user, let roster = entry.after?.user else { return .notUndoable("the journal lacks its values") }
            requests += 1
            let now: User
            do {
                now = try await directory.user(id: entry.objectID)
            } catch APIError.notFound {
                return .notUndoable("the user is gone")
            }
            let changed = UserFields.differences(from: before, to: roster)
            let current = UserFields.differences(from: before, to: now)
            var conflicts: [UndoConflict] = []
            var toSetBack: [UserFields.Difference] = []
            for field in changed {
                let nowValue = current.first { $0.name == field.name }?.after ?? field.before
                if nowValue == field.before { continue } // already as before
                if nowValue == field.after || force {
                    toSetBack.append(field)
                } else {
                    conflicts.append(UndoConflict(field: field.name, before: field.before, roster: field.after, now: nowValue))
                }
            }
            if !conflicts.isEmpty { return .conflict(conflicts) }
            guard !toSetBack.isEmpty else { return .alreadyAsBefore }
            var draft = now.draft
            for field in toSetBack {
                if let attribute = field.attribute {
                    // "" clears an attribute the user did not have before.
                    draft.attributes[attribute] = before.attributes[attribute] ?? ""
                    continue
                }
                switch field.name {
                case "name": draft.name = before.name
                case "email": draft.email = before.email
                case "role": draft.role = before.role
                default: draft.status = before.status
                }
            }
            requests += 1
            let asked = draft
            _ = try await recorder.record(write(.update(now, to: asked)), run: runID, landed: { (.user($0), nil) }) {
                try await directory.updateUser(id: now.id, with: asked)
            }
            return .restored(note: nil)
        }

        /// A create is undone by deleting the user, if it is still as Roster made it.
        private func undoCreate(requests: inout Int) async throws -> UndoOutcome.Kind {
            guard let made = entry.after?.user else { return .notUndoable("the journal does not know the new user's id") }
            requests += 1
            let now: User
            do {
                now = try await directory.user(id: made.id)
            } catch APIError.notFound {
                return .alreadyAsBefore
            }
            let differences = UserFields.differences(from: made, to: now)
            if !differences.isEmpty, !force {
                return .conflict(differences.map { UndoConflict(field: $0.name, before: "(no user)", roster: $0.before, now: $0.after) })
            }
            requests += 1
            try await recorder.record(write(.delete(now)), run: runID) { try await directory.deleteUser(id: now.id) }
            return .restored(note: "deleted")
        }

        /// A delete is undone by making the user again, with the same attributes and groups.
        /// The directory gives the new user its own id: the note says so when it differs.
        private func undoDelete(requests: inout Int) async throws -> UndoOutcome.Kind {
            guard let gone = entry.before?.user else { return .notUndoable("the journal lacks the user's values") }
            requests += 1
            do {
                _ = try await directory.user(id: gone.id)
                return .alreadyAsBefore // still there: the delete did not land
            } catch APIError.notFound {}
            requests += 1
            var recreated = gone.draft
            recreated.attributes = gone.attributes
            let draft = recreated
            let made = try await recorder.record(write(.create(draft)), run: runID, landed: { (.user($0), $0.id) }) {
                try await directory.createUser(draft)
            }
            var notes: [String] = []
            if made.id != gone.id { notes.append("new id \(made.id), was \(gone.id)") }
            var missed: [String] = []
            for group in gone.groups {
                requests += 1
                do {
                    try await recorder.record(write(.membership(made, group, adding: true)), run: runID) {
                        try await directory.addMember(made.id, to: group.id)
                    }
                } catch {
                    missed.append(group.name)
                }
            }
            if !missed.isEmpty { notes.append("not put back in \(missed.joined(separator: ", "))") }
            return .restored(note: notes.isEmpty ? nil : notes.joined(separator: "; "))
        }

        private func undoMembership(requests: inout Int) async throws -> UndoOutcome.Kind {
            guard case .membership(let group, let wasMember)? = entry.before else { return .notUndoable("the journal lacks the group") }
            requests += 1
            let now: User
            do {
                now = try await directory.user(id: entry.objectID)
            } catch APIError.notFound {
                return wasMember ? .notUndoable("the user is gone") : .alreadyAsBefore
            }
            let isMember = now.groups.contains { $0.id == group.id }
            guard isMember != wasMember else { return .alreadyAsBefore }
            requests += 1
            try await recorder.record(write(.membership(now, group, adding: wasMember)), run: runID) {
                try await directory.changeMembers(of: group.id, wasMember ? MembershipChange(add: [now.id]) : MembershipChange(remove: [now.id]))
            }
            return .restored(note: nil)
        }

        private func undoCreateGroup(requests: inout Int) async throws -> UndoOutcome.Kind {
            guard let made = entry.after?.group else { return .notUndoable("the journal does not know the new group's id") }
            requests += 1
            let now: Group
            do {
                now = try await directory.group(id: made.id)
            } catch APIError.notFound {
                return .alreadyAsBefore
            }
            if now.name != made.name, !force {
                return .conflict([UndoConflict(field: "name", before: "(no group)", roster: made.name, now: now.name)])
            }
            requests += 1
            let write = self.write(ChangeRecorder.Write(kind: .group, objectID: now.id, label: now.name, action: .deleteGroup, before: .group(now)))
            try await recorder.record(write, run: runID) { try await directory.deleteGroup(id: now.id) }
            return .restored(note: "deleted")
        }

        private func undoRename(requests: inout Int) async throws -> UndoOutcome.Kind {
            guard let before = entry.before?.group, let roster = entry.after?.group else { return .notUndoable("the journal lacks the names") }
            requests += 1
            let now = try await directory.group(id: before.id)
            if now.name == before.name { return .alreadyAsBefore }
            if now.name != roster.name, !force {
                return .conflict([UndoConflict(field: "name", before: before.name, roster: roster.name, now: now.name)])
            }
            requests += 1
            var back = now
            back.name = before.name
            let write = self.write(ChangeRecorder.Write(kind: .group, objectID: now.id, label: now.name, action: .renameGroup,
                                                        before: .group(now), after: .group(back)))
            _ = try await recorder.record(write, run: runID, landed: { (.group($0), nil) }) {
                try await directory.renameGroup(id: now.id, to: GroupDraft(name: before.name))
            }
            return .restored(note: nil)
        }

        /// A deleted group is made again by name; its members were not journalled with it.
        private func undoDeleteGroup(requests: inout Int) async throws -> UndoOutcome.Kind {
            guard let gone = entry.before?.group else { return .notUndoable("the journal lacks the group") }
            requests += 1
            do {
                _ = try await directory.group(id: gone.id)
                return .alreadyAsBefore
            } catch APIError.notFound {}
            requests += 1
            let write = self.write(ChangeRecorder.Write(kind: .group, objectID: "", label: gone.name, action: .createGroup))
            let made = try await recorder.record(write, run: runID, landed: { (.group($0), $0.id) }) {
                try await directory.createGroup(GroupDraft(name: gone.name))
            }
            return .restored(note: "made again as id \(made.id), without its members")
        }
    }
}
