import RosterKit

extension AppModel {
    /// `h`: the selected user's history in the detail pane, or back to their record.
    public func toggleHistory() {
        guard listIdle else { return }
        guard traits.hasHistory else {
            // The traits may not be learnt yet (a key right after start): ask before refusing.
            let directory = self.directory
            _ = activity.startWork { [weak self] in
                let learnt = await directory.traits()
                guard let self else { return }
                adopt(learnt)
                if learnt.hasHistory {
                    toggleHistory()
                } else {
                    showStatus("This directory keeps no history of changes", kind: .warning)
                }
            }
            return
        }
        guard let user = list.selectedUser else {
            showStatus("No user selected", kind: .warning)
            return
        }
        history.toggle(for: user.id)
    }

    /// Whether the detail pane shows the history now: open, and for the selected user.
    public var showsHistory: Bool {
        history.userID != nil && history.userID == list.selectedUser?.id
    }
}
