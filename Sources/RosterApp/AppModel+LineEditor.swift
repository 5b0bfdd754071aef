import RosterKit

/// The line at the bottom of the screen: opening it for a purpose, keystrokes, Enter and Esc.
/// Enter hands the text to what opened it: the search, the filter line (AppModel+Filters), the
/// group of a bulk action (AppModel+Bulk), the file of an export or import (AppModel+CSV).
extension AppModel {
    /// Opens the line (only over the list, with no other line open).
    func openLine(_ editor: LineEditor) {
        guard listIdle else { return }
        line = editor
    }

    /// A keystroke on the line. The search follows as it is typed (after the debounce; the
    /// groups, a short list, at once).
    public func editLine(_ edit: TextEdit) {
        guard var editor = line else { return }
        let changed = editor.apply(edit)
        line = editor
        guard changed, editor.purpose == .search else { return }
        if let groups = searchedGroups { groups.setSearch(editor.text) } else { list.setSearch(editor.text) }
    }

    /// Enter: hands the text to what opened the line.
    public func commitLine() {
        guard let editor = line else { return }
        switch editor.purpose {
        case .search:
            line = nil
            if searchedGroups == nil { list.applySearchNow() }
        case .filter:
            commitFilter(editor)
        case .bulkGroup(let adding):
            commitBulkGroup(editor, adding: adding)
        case .exportFile, .importFile:
            commitFile(editor)
        case .groupName:
            break // the group-name dialog's own line (PromptModel)
        case .newPassword:
            commitNewPassword(editor)
        case .newPasswordAgain(let first):
            commitPasswordAgain(editor, first: first)
        }
    }

    /// Esc: closes the line. The search goes back to what it was before `/`; anything looked
    /// up for the line is no longer wanted.
    public func cancelLine() {
        guard let editor = line else { return }
        line = nil
        groupLookup?.cancel()
        groupLookup = nil
        guard editor.purpose == .search else { return }
        if let groups = searchedGroups {
            groups.setSearch(searchBeforeEditing)
            return
        }
        list.setSearch(searchBeforeEditing)
        list.applySearchNow()
    }

    /// Says why the text cannot be used, beside the line, which stays open.
    func showLineProblem(_ problem: String) {
        line?.problem = problem
    }

    // MARK: Search

    /// The groups view's search, when that view is the one searched.
    var searchedGroups: GroupsViewModel? { mainView == .groups ? groupsView : nil }

    /// `/`: opens the search line holding the current search (of the users, or of the groups
    /// in the groups view).
    public func startSearch() {
        guard listIdle else { return }
        let current = searchedGroups?.search ?? list.searchText
        searchBeforeEditing = current
        openLine(LineEditor(.search, text: current))
    }

    /// Esc on the list: drops the search in force, back to everyone (or every group).
    public func clearSearch() {
        guard listIdle else { return }
        if let groups = searchedGroups {
            guard !groups.search.isEmpty else { return }
            groups.setSearch("")
            return
        }
        guard !list.searchText.isEmpty else { return }
        list.setSearch("")
        list.applySearchNow()
    }
}
