import RosterKit

/// The groups view and group membership: `Tab` between users and groups; create, rename and
/// delete groups; add and remove members from a group, or the selected user's groups from the
/// user list. Every change is a request whose outcome shows where it was asked for (the
/// prompt, the picker, the confirmation), then in the status line.
extension AppModel {
    /// Whether this directory has groups to show (DirectoryTraits.hasGroups).
    public var hasGroups: Bool { traits.hasGroups }

    /// The groups view is the base layer and nothing is stacked on it.
    var groupsIdle: Bool { listIdle && mainView == .groups }
    /// The user list is the base layer and nothing is stacked on it.
    var usersIdle: Bool { listIdle && mainView == .users }

    func wireGroupsView() {
        let view = groupsView
        view.groups.onFailure = { [weak self] error in
            self?.presentError(title: "Could not load the groups", error: error) { [weak self] in self?.groupsView.retry() }
        }
        view.members.onFailure = { [weak self] error in
            guard let self else { return }
            let name = groupsView.shownGroup?.name ?? "the group"
            presentError(title: "Could not load the members of \(name)", error: error) { [weak self] in self?.groupsView.retry() }
        }
    }

    /// `Tab`: the users or the groups. The groups load the first time they are shown; a
    /// directory without groups shows why there are none.
    public func toggleMainView() {
        guard listIdle else { return }
        switch mainView {
        case .users:
            mainView = .groups
            if hasGroups {
                groupsView.start()
            } else {
                // The traits may not be known yet (the first load is under way): ask again.
                learnTraits()
            }
        case .groups:
            mainView = .users
        }
    }

    /// Starts the groups view once the server has said it has groups (after `Tab` came first).
    func startGroupsIfShown() {
        if mainView == .groups, hasGroups { groupsView.start() }
    }

    public func setGroupsViewport(height: Int) { groupsView.setViewportHeight(height) }

    // MARK: Moving in the groups view

    public enum GroupsMove: Sendable {
        case down, up, pageDown, pageUp, top, bottom
        /// Into the members pane, and back to the groups.
        case members, groups
    }

    public func moveInGroups(_ move: GroupsMove) {
        guard groupsIdle, hasGroups else { return }
        let view = groupsView
        switch move {
        case .down: view.moveDown()
        case .up: view.moveUp()
        case .pageDown: view.pageDown()
        case .pageUp: view.pageUp()
        case .top: view.moveToTop()
        case .bottom: view.moveToBottom()
        case .members: view.focusMembers()
        case .groups: view.focusGroups()
        }
    }

    // MARK: Groups

    /// `n` in the groups view: asks for the new group's name.
    public func newGroup() {
        guard groupsIdle, hasGroups else { return }
        let directory = self.directory
        let recorder = self.recorder
        let prompt = PromptModel(
            title: "New group", label: "Name", submitLabel: "Create", activity: activity, check: Self.nameProblem
        ) { [weak self] name, key in
            let write = ChangeRecorder.Write(kind: .group, objectID: "", label: name, action: .createGroup)
            let group = try await recorder.record(write, landed: { (.group($0), $0.id) }) {
                try await directory.createGroup(GroupDraft(name: name), idempotencyKey: key)
            }
            self?.showStatus("Created \(group.name)")
            self?.groupsView.refresh(selecting: group.id)
        }
        present(prompt, failureTitle: "Could not create the group")
    }

    /// `e` in the groups view: asks for the selected group's new name.
    public func renameSelectedGroup() {
        guard groupsIdle, let group = selectedGroupOrSay() else { return }
        let directory = self.directory
        let recorder = self.recorder
        let prompt = PromptModel(
            title: "Rename \(group.name)", label: "Name", text: group.name, submitLabel: "Rename", activity: activity,
            check: Self.nameProblem
        ) { [weak self] name, _ in
            var after = group
            after.name = name
            let write = ChangeRecorder.Write(kind: .group, objectID: group.id, label: group.name, action: .renameGroup,
                                             before: .group(group), after: .group(after))
            let renamed = try await recorder.record(write, landed: { (.group($0), nil) }) {
                try await directory.renameGroup(id: group.id, to: GroupDraft(name: name))
            }
            self?.showStatus("Renamed \(group.name) to \(renamed.name)")
            self?.groupsView.groups.replace(renamed)
            // Members show their groups by name: the user list and detail pane read them again.
            self?.list.refresh()
        }
        present(prompt, failureTitle: "Could not rename \(group.name)")
    }

    /// `d` on a group: asks, then deletes it. Its users stay; only their membership goes.
    public func deleteSelectedGroup() {
        guard groupsIdle, let group = selectedGroupOrSay() else { return }
        let members = switch group.memberCount {
        case 0: "It has no members."
        case 1: "Its 1 member stays a user."
        default: "Its \(CountFormat.grouped(group.memberCount)) members stay users."
        }
        let directory = self.directory
        let recorder = self.recorder
        let write = ChangeRecorder.Write(kind: .group, objectID: group.id, label: group.name, action: .deleteGroup, before: .group(group))
        let confirm = ConfirmModel(
            title: "Delete group",
            message: "Delete the group \(group.name)? \(members) \(recorder.journal == nil ? "This cannot be undone." : "U can make it again, without its members.")",
            confirmLabel: "Delete", isDestructive: true, activity: activity,
            action: { try await recorder.record(write) { try await directory.deleteGroup(id: group.id) } })
        confirm.onFinish = { [weak self, weak confirm] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            if outcome == .confirmed {
                showStatus("Deleted the group \(group.name)")
                groupsView.refresh()
                if group.memberCount > 0 { list.refresh() }
            }
        }
        push(.confirm(confirm))
    }

    // MARK: Members, from the groups view

    /// `a` in the groups view: pick a user by name or email, and add them to the selected group.
    public func addMemberToSelectedGroup() {
        guard groupsIdle, let group = selectedGroupOrSay() else { return }
        let directory = self.directory
        let recorder = self.recorder
        let picker = PickerModel(
            title: "Add to \(group.name)", label: "User", actionLabel: "Add", activity: activity,
            search: { text in
                try await directory.listUsers(UserQuery(perPage: PickerModel.limit, search: text)).items.map {
                    PickerModel.Choice(id: $0.id, title: $0.name, detail: $0.email)
                }
            },
            action: { [weak self] choice in
                let write = ChangeRecorder.Write.membership(userID: choice.id, label: "\(choice.title) <\(choice.detail)>", group.reference, adding: true)
                let changed = try await recorder.record(write) { try await directory.addMember(choice.id, to: group.id) }
                self?.membershipChanged(changed, status: "Added \(choice.title) to \(changed.name)", user: choice.id)
            })
        present(picker)
    }

    /// `d` on a member: asks, then takes them out of the group (they stay a user).
    public func removeSelectedMember() {
        guard groupsIdle, let group = groupsView.shownGroup else { return }
        guard let user = groupsView.selectedMember else {
            showStatus("No member selected", kind: .warning)
            return
        }
        let directory = self.directory
        let recorder = self.recorder
        let confirm = ConfirmModel(
            title: "Remove from group", message: "Take \(user.name) <\(user.email)> out of \(group.name)? They stay a user.",
            confirmLabel: "Remove", activity: activity,
            action: { [weak self] in
                let changed = try await recorder.record(.membership(user, group.reference, adding: false)) {
                    try await directory.removeMember(user.id, from: group.id)
                }
                self?.membershipChanged(changed, status: "Removed \(user.name) from \(changed.name)", user: user.id)
            })
        confirm.onFinish = { [weak self, weak confirm] _ in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
        }
        push(.confirm(confirm))
    }

    // MARK: Groups, from the user list

    /// `+` on a user: pick a group by name and add the selected user to it.
    public func addSelectedUserToGroup() {
        guard usersIdle else { return }
        guard hasGroups else {
            showStatus("This directory has no groups", kind: .warning)
            return
        }
        guard let user = list.selectedUser else {
            showStatus("No user selected", kind: .warning)
            return
        }
        let directory = self.directory
        let recorder = self.recorder
        let picker = PickerModel(
            title: "Add \(user.name) to a group", label: "Group", actionLabel: "Add", activity: activity,
            search: { text in
                try await directory.groups(named: text, limit: PickerModel.limit).map { PickerModel.Choice(id: $0.id, title: $0.name) }
            },
            action: { [weak self] choice in
                let group = GroupReference(id: choice.id, name: choice.title)
                let changed = try await recorder.record(.membership(user, group, adding: true)) {
                    try await directory.addMember(user.id, to: choice.id)
                }
                self?.membershipChanged(changed, status: "Added \(user.name) to \(changed.name)", user: user.id)
            })
        present(picker)
    }

    /// `-` on a user: pick one of their groups and take them out of it.
    public func removeSelectedUserFromGroup() {
        guard usersIdle, hasGroups else { return }
        guard let selected = list.selectedUser else {
            showStatus("No user selected", kind: .warning)
            return
        }
        let user = detail.user?.id == selected.id ? detail.user ?? selected : selected
        guard !user.groups.isEmpty else {
            showStatus("\(user.name) is in no group", kind: .warning)
            return
        }
        let theirs = user.groups
        let directory = self.directory
        let recorder = self.recorder
        let picker = PickerModel(
            title: "Remove \(user.name) from a group", label: "Group", actionLabel: "Remove", activity: activity,
            search: { text in
                theirs.filter { text.isEmpty || $0.name.range(of: text, options: .caseInsensitive) != nil }
                    .map { PickerModel.Choice(id: $0.id, title: $0.name) }
            },
            action: { [weak self] choice in
                let group = GroupReference(id: choice.id, name: choice.title)
                let changed = try await recorder.record(.membership(user, group, adding: false)) {
                    try await directory.removeMember(user.id, from: choice.id)
                }
                self?.membershipChanged(changed, status: "Removed \(user.name) from \(changed.name)", user: user.id)
            })
        present(picker)
    }

    // MARK: Shared

    /// After a membership change: the group's count, its members, and the user as the server
    /// now has them (their `groups`) wherever they show.
    private func membershipChanged(_ group: Group, status: String, user id: String) {
        showStatus(status)
        let view = groupsView
        if view.hasStarted {
            view.groups.replace(group)
            if view.shownGroup?.id == group.id { view.refreshMembers() }
        }
        list.refresh(selecting: list.selectedUser?.id)
        let directory = self.directory
        _ = activity.startLoad(spinnerAfter: Activity.backgroundGrace) { [weak self] in
            guard let user = try? await directory.user(id: id), let self, detail.user?.id == user.id else { return }
            detail.showSaved(user)
        }
    }

    private func selectedGroupOrSay() -> Group? {
        guard hasGroups else { return nil }
        guard let group = groupsView.selectedGroup else {
            showStatus("No group selected", kind: .warning)
            return nil
        }
        return group
    }

    private func present(_ prompt: PromptModel, failureTitle: String) {
        prompt.onFinish = { [weak self, weak prompt] _ in
            guard let self, let prompt else { return }
            remove(.prompt(prompt))
        }
        prompt.onFailure = { [weak self, weak prompt] error in
            self?.presentError(title: failureTitle, error: error) { [weak prompt] in prompt?.retry() }
        }
        push(.prompt(prompt))
    }

    private func present(_ picker: PickerModel) {
        picker.onFinish = { [weak self, weak picker] _ in
            guard let self, let picker else { return }
            remove(.picker(picker))
        }
        push(.picker(picker))
        picker.start()
    }

    /// A group name's problem before it is sent (GroupDraft's rules), or nil.
    static func nameProblem(_ name: String) -> String? {
        GroupDraft(name: name).normalized.problems.first?.message
    }
}
