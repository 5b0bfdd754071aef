import RosterKit

/// One user at a time: the create and edit forms (`n`, `e`), suspend (`S`) and delete (`d`)
/// of the selected user.
extension AppModel {
    /// `n`: the create form.
    public func newUser() {
        guard listIdle else { return }
        push(.form(makeForm(.create)))
    }

    /// The user `e`, `S` and `d` act on: the selected row's, in the freshest copy we have. Right
    /// after a save the list reloads to select the saved user while the detail pane already
    /// shows it; until the reload lands, the keys act on that user, not the row selected before.
    var userKeysActOn: User? {
        if let pending = list.userBeingSelected, let shown = detail.user, shown.id == pending { return shown }
        guard let selected = list.selectedUser else { return nil }
        return detail.user?.id == selected.id ? detail.user ?? selected : selected
    }

    /// `e`: the edit form for the selected user, with the freshest copy we have.
    public func editSelected() {
        guard listIdle else { return }
        guard let user = userKeysActOn else {
            showStatus("No user selected", kind: .warning)
            return
        }
        push(.form(makeForm(.edit(user))))
    }

    /// `S`: suspends the selected user, or reactivates a suspended one. One key and no question:
    /// pressing it again undoes it.
    public func toggleSuspended() {
        guard listIdle else { return }
        if !list.marks.isEmpty { return askBulk(.suspend) }
        guard let user = userKeysActOn else {
            showStatus("No user selected", kind: .warning)
            return
        }
        var draft = user.draft
        draft.status = user.status == .suspended ? .active : .suspended
        let verb = draft.status == .suspended ? "Suspended" : "Reactivated"
        let directory = self.directory
        let recorder = self.recorder
        let asked = draft
        _ = activity.startLoad { [weak self] in
            do {
                let saved = try await recorder.record(.update(user, to: asked), landed: { (.user($0), nil) }) {
                    try await directory.updateUser(id: user.id, with: asked)
                }
                guard let self else { return }
                showStatus("\(verb) \(saved.name)")
                list.refresh(selecting: saved.id)
                detail.showSaved(saved)
            } catch {
                guard let self, let failure = APIError.shown(for: error) else { return }
                let title = draft.status == .suspended ? "Could not suspend \(user.name)" : "Could not reactivate \(user.name)"
                presentError(title: title, error: failure) { [weak self] in self?.toggleSuspended() }
            }
        }
    }

    /// `d`: asks before deleting the selected user.
    public func deleteSelected() {
        guard listIdle else { return }
        if !list.marks.isEmpty { return askBulk(.delete) }
        guard let user = userKeysActOn else {
            showStatus("No user selected", kind: .warning)
            return
        }
        let directory = self.directory
        let recorder = self.recorder
        let confirm = ConfirmModel(
            title: "Delete user", message: "Delete \(user.name) <\(user.email)>? \(recorder.journal == nil ? "This cannot be undone." : "U can undo it.")",
            confirmLabel: "Delete", isDestructive: true, activity: activity,
            action: { try await recorder.record(.delete(user)) { try await directory.deleteUser(id: user.id) } })
        confirm.onFinish = { [weak self, weak confirm] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            if outcome == .confirmed {
                showStatus("Deleted \(user.name)")
                list.refresh()
            }
        }
        push(.confirm(confirm))
    }

    func makeForm(_ mode: FormMode) -> UserFormModel {
        let form = UserFormModel(mode: mode, directory: directory, activity: activity, traits: traits, recorder: recorder)
        form.onSaved = { [weak self, weak form] user in
            guard let self, let form else { return }
            let status = if case .create = mode { "Created \(user.name)" } else { "Saved \(user.name)" }
            closeForm(form, selecting: user, status: status)
        }
        form.onConflict = { [weak self, weak form] conflict in
            guard let self, let form else { return }
            let confirm = ConfirmModel(
                title: "Someone changed \(conflict.original.name)",
                message: "Changed on the server since you opened it: \(conflict.summary). Apply your edits to the server's version?",
                confirmLabel: "Apply my edits", activity: activity,
                action: { [weak form] in
                    form?.rebase(onto: conflict.server)
                    form?.submit()
                })
            confirm.onFinish = { [weak self, weak confirm] _ in
                guard let self, let confirm else { return }
                remove(.confirm(confirm))
            }
            push(.confirm(confirm))
        }
        form.onFailure = { [weak self, weak form] error in
            guard let self, let form else { return }
            let title = if case .edit(let user) = mode { "Could not save \(user.name)" } else { "Could not create the user" }
            if case .createOutcomeUnknown(let found?) = error {
                // The create most likely landed, and sending it again would be refused as a
                // duplicate: offer the user found, not a retry.
                presentError(title: title, error: error, retry: nil, open: ("Open \(found.name)", { [weak self, weak form] in
                    guard let self, let form else { return }
                    closeForm(form, selecting: found, status: "Opened \(found.name)")
                }))
                return
            }
            presentError(title: title, error: error) { [weak form] in form?.retry() }
        }
        return form
    }

    /// Closes the form and selects `user` in the list and the detail pane.
    private func closeForm(_ form: UserFormModel, selecting user: User, status: String) {
        remove(.form(form))
        showStatus(status)
        list.refresh(selecting: user.id)
        detail.showSaved(user)
    }
}
