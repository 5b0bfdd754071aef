import RosterApp

/// Keys to model actions, for whatever is on top of the screen. One table per context, in
/// the spirit of tig's keymaps: a key means one thing where it works and nothing elsewhere.
@MainActor
enum KeyBindings {
    static func handle(_ key: Key, model: AppModel) {
        switch model.topScreen {
        case .list:
            if model.isSearching {
                searchLine(key, model: model)
            } else if model.isFiltering {
                filterLine(key, model: model)
            } else if model.mainView == .groups {
                groupsView(key, model: model)
            } else {
                list(key, model: model)
            }
        case .form(let form):
            self.form(key, form: form, model: model)
        case .confirm:
            confirm(key, model: model)
        case .error:
            errorDialog(key, model: model)
        case .help:
            help(key, model: model)
        case .prompt(let prompt):
            self.prompt(key, prompt: prompt, model: model)
        case .picker(let picker):
            self.picker(key, picker: picker, model: model)
        }
    }

    private static func list(_ key: Key, model: AppModel) {
        switch key {
        case .character("j"), .down: model.moveDown()
        case .character("k"), .up: model.moveUp()
        case .pageDown, .control("f"), .character(" "): model.pageDown()
        case .pageUp, .control("b"): model.pageUp()
        case .character("g"), .home: model.moveToTop()
        case .character("G"), .end: model.moveToBottom()
        case .character("/"): model.startSearch()
        case .escape: model.clearSearch()
        case .character("f"): model.startFilter()
        case .character("F"): model.clearFilters()
        case .character("t"): model.cycleStatusFilter()
        case .character("o"): model.cycleRoleFilter()
        case .character("y"): model.copySelectedEmail()
        case .character("s"): model.cycleSort()
        case .character("S"): model.toggleSuspended()
        case .character("n"): model.newUser()
        case .character("e"), .enter: model.editSelected()
        case .character("d"), .delete: model.deleteSelected()
        case .character("r"): model.retry()
        case .character("R"), .control("r"): model.refresh()
        case .character("?"), .function(1): model.showHelp()
        case .character("q"): model.requestQuit()
        case .tab: model.toggleMainView()
        case .character("+"): model.addSelectedUserToGroup()
        case .character("-"): model.removeSelectedUserFromGroup()
        default: break
        }
    }

    private static func filterLine(_ key: Key, model: AppModel) {
        switch key {
        case .enter: model.commitFilter()
        case .escape: model.cancelFilter()
        default:
            if let edit = textEdit(for: key) { model.editFilter(edit) }
        }
    }

    private static func searchLine(_ key: Key, model: AppModel) {
        switch key {
        case .enter: model.commitSearch()
        case .escape: model.cancelSearch()
        case .down: model.moveDown()
        case .up: model.moveUp()
        case .pageDown: model.pageDown()
        case .pageUp: model.pageUp()
        default:
            if let edit = textEdit(for: key) { model.editSearch(edit) }
        }
    }

    private static func form(_ key: Key, form: UserFormModel, model: AppModel) {
        switch key {
        case .tab, .down: form.focusNext()
        case .backTab, .up: form.focusPrevious()
        case .enter: model.confirm()
        case .escape: model.close()
        case .character(" ") where !form.focus.isText: form.selectNextOption()
        default:
            if let edit = textEdit(for: key) { form.edit(edit) }
        }
    }

    private static func confirm(_ key: Key, model: AppModel) {
        switch key {
        case .character("y"), .character("Y"), .enter: model.confirm()
        case .character("n"), .character("N"), .escape: model.close()
        case .character("r"): model.retry()
        case .character("q"): model.close()
        default: break
        }
    }

    private static func errorDialog(_ key: Key, model: AppModel) {
        switch key {
        case .character("r"), .enter: model.retry()
        case .escape: model.close()
        case .character("q"): model.requestQuit()
        default: break
        }
    }

    private static func help(_ key: Key, model: AppModel) {
        switch key {
        case .escape, .character("?"), .character("q"), .enter, .function(1): model.close()
        default: break
        }
    }

    /// Line editing shared by the search line and form fields.
    static func textEdit(for key: Key) -> TextEdit? {
        switch key {
        case .character(let character): .insert(String(character))
        case .backspace, .control("h"): .deleteBackward
        case .delete, .control("d"): .deleteForward
        case .left: .moveLeft
        case .right: .moveRight
        case .home, .control("a"): .moveToStart
        case .end, .control("e"): .moveToEnd
        case .control("u"): .deleteToStart
        case .control("k"): .deleteToEnd
        case .control("w"): .deleteWordBackward
        default: nil
        }
    }

    /// What the hint bar offers for the screen on top.
    static func hints(for model: AppModel) -> [Hint] {
        switch model.topScreen {
        case .list where model.isSearching:
            return [Hint("Enter", "Keep"), Hint("Esc", "Cancel"), Hint("↑↓", "Move"), Hint("Ctrl-U", "Clear")]
        case .list where model.isFiltering:
            return [Hint("Enter", "Apply"), Hint("Esc", "Cancel"), Hint("Ctrl-U", "Clear")]
        case .list where model.mainView == .groups:
            return groupsHints(for: model)
        case .list:
            var hints = [Hint("j/k", "Move"), Hint("/", "Search"), Hint("f", "Filter"), Hint("n", "New"), Hint("e", "Edit"), Hint("d", "Delete")]
            if model.canRetry { hints.insert(Hint("r", "Retry"), at: 0) }
            if !model.list.searchText.isEmpty { hints.append(Hint("Esc", "Clear search")) }
            if !model.list.filter.isEmpty { hints.append(Hint("F", "Clear filters")) }
            // Help and Quit before the newer keys: a narrow bar drops hints from the end.
            hints += [Hint("S", "Suspend"), Hint("s", "Sort"), Hint("R", "Refresh"), Hint("?", "Help"), Hint("q", "Quit"),
                      Hint("y", "Copy email"), Hint("t/o", "Status/role")]
            if model.hasGroups { hints.insert(Hint("Tab", "Groups"), at: hints.count - 2) }
            return hints
        case .form(let form):
            let choose = form.focus.isText ? Hint("Ctrl-U", "Clear") : Hint("←/→", "Choose")
            return [Hint("Tab", "Next field"), choose, Hint("Enter", form.submitLabel), Hint("Esc", "Cancel")]
        case .confirm(let confirm):
            return [Hint("y", confirm.confirmLabel), Hint("n", confirm.cancelLabel)]
        case .error:
            return model.canRetry ? [Hint("r", "Retry"), Hint("Esc", "Close"), Hint("q", "Quit")] : [Hint("Esc", "Close"), Hint("q", "Quit")]
        case .help:
            return [Hint("Esc", "Close")]
        case .prompt(let prompt):
            return [Hint("Enter", prompt.submitLabel), Hint("Esc", "Cancel"), Hint("Ctrl-U", "Clear")]
        case .picker(let picker):
            return [Hint("Enter", picker.actionLabel), Hint("↑↓", "Choose"), Hint("Esc", "Cancel")]
        }
    }
}
