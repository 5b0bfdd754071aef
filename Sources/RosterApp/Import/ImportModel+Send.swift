import RosterCSV
import RosterJournal
import RosterKit

/// One row of an import on the wire: a create or an update, then the groups it joins.
extension ImportModel {
    nonisolated static func send(_ item: Item, plan: ImportPlan, groups: [String: GroupReference], to directory: any Directory,
                                 recorder: ChangeRecorder, runID: String?) async -> (step: Runner.Step, requests: Int) {
        let row = item.row
        switch item.verdict {
        case .new:
            guard let draft = row.draft else {
                return (.failed(ImportOutcome(line: row.line, email: row.email, kind: .invalid(reason: "new user without a name or email"))), 0)
            }
            let sent = await create(row, draft: draft, key: plan.idempotencyKey(for: row), to: directory, recorder: recorder, runID: runID)
            guard case .changed(var outcome) = sent.step, case .created(let id) = outcome.kind else { return sent }
            let joined = await join(row.groups ?? [], userID: id, label: "\(draft.name) <\(draft.email)>", groups: groups,
                                    directory: directory, recorder: recorder, runID: runID)
            outcome.note = joined.note
            return (.changed(outcome), sent.requests + joined.requests)
        case .changed(let user, let fields, let addGroups):
            var requests = 0
            var outcome = ImportOutcome(line: row.line, email: row.email, kind: .updated(id: user.id, changes: item.verdict.changeText))
            if !fields.isEmpty {
                let draft = row.applied(to: user)
                requests += 1
                do {
                    try await recorder.record(.update(user, to: draft), run: runID, landed: { (.user($0), nil) }) {
                        try await directory.updateUser(id: user.id, with: draft)
                    }
                } catch let error as APIError {
                    if case .rateLimited(let wait, _) = error { return (.rateLimited(wait, error), requests) }
                    return (.failed(ImportOutcome(line: row.line, email: row.email, kind: .failed(reason: error.reason))), requests)
                } catch {
                    guard let shown = APIError.shown(for: error) else { return (.cancelled, requests) }
                    return (.failed(ImportOutcome(line: row.line, email: row.email, kind: .failed(reason: shown.reason))), requests)
                }
            }
            let joined = await join(addGroups, userID: user.id, label: user.label, groups: groups, directory: directory, recorder: recorder, runID: runID)
            outcome.note = joined.note
            return (.changed(outcome), requests + joined.requests)
        case .unchanged(let user):
            return (.unchanged(ImportOutcome(line: row.line, email: row.email, kind: .unchanged(id: user.id))), 0)
        }
    }

    /// Adds the user to each named group, one journalled membership each. A group that is not
    /// there (not created when asked) or a membership that fails is named in the note; the row
    /// is not sent again for it (its create or update has landed).
    nonisolated static func join(_ names: [String], userID: String, label: String, groups: [String: GroupReference], directory: any Directory,
                                 recorder: ChangeRecorder, runID: String?) async -> (note: String, requests: Int) {
        var added: [String] = [], problems: [String] = []
        var requests = 0
        for name in names {
            guard let group = groups[name.lowercased()] else {
                problems.append("not added to \(name) (no such group)")
                continue
            }
            requests += 1
            do {
                try await recorder.record(.membership(userID: userID, label: label, group, adding: true), run: runID) {
                    try await directory.addMember(userID, to: group.id)
                }
                added.append(group.name)
            } catch {
                problems.append("not added to \(name): \(APIError.shown(for: error)?.reason ?? "cancelled")")
            }
        }
        let parts = (added.isEmpty ? [] : ["added to " + added.joined(separator: ", ")]) + problems
        return (parts.joined(separator: "; "), requests)
    }

    /// A new row (the preview's comparison looked it up): created with the row's own key, so a
    /// create whose answer was lost is replayed, not repeated. A 409 means someone made the
    /// email since the preview: looked up and skipped. A 429 goes back to the runner, which
    /// holds every write for the wait and sends this one again.
    nonisolated static func create(_ row: ImportRow, draft: UserDraft, key: String, to directory: any Directory,
                                   recorder: ChangeRecorder = .none, runID: String? = nil) async -> (step: Runner.Step, requests: Int) {
        func outcome(_ kind: ImportOutcome.Kind) -> ImportOutcome { ImportOutcome(line: row.line, email: row.email, kind: kind) }
        var requests = 1
        do {
            let user = try await recorder.record(.create(draft), run: runID, landed: { (.user($0), $0.id) }) {
                try await directory.createUser(draft, idempotencyKey: key)
            }
            return (.changed(outcome(.created(id: user.id))), requests)
        } catch let error as APIError {
            switch error {
            case .rateLimited(let wait, _):
                return (.rateLimited(wait, error), requests)
            case .conflict:
                requests += 1
                let existing = try? await existingUser(email: draft.email, in: directory)
                if existing != nil || error.fieldErrors.contains(where: { $0.field == "email" }) {
                    return (.unchanged(outcome(.alreadyExists(id: existing?.id))), requests)
                }
                return (.failed(outcome(.failed(reason: error.reason))), requests)
            case .createOutcomeUnknown(let existing?):
                // The answer was lost, and the lookup found the user: it was made.
                return (.changed(outcome(.created(id: existing.id))), requests)
            default:
                return (.failed(outcome(.failed(reason: error.reason))), requests)
            }
        } catch {
            guard APIError.shown(for: error) != nil else { return (.cancelled, requests) }
            return (.failed(outcome(.failed(reason: String(describing: error)))), requests)
        }
    }

    /// The user with exactly this email (in any case), if there is one.
    nonisolated static func existingUser(email: String, in directory: any Directory) async throws -> User? {
        let page = try await directory.listUsers(UserQuery(perPage: 20, search: email))
        return page.items.first { $0.email.lowercased() == email.lowercased() }
    }
}
