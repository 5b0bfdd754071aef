import RosterApp

/// The keys of the groups view, the group-name prompt and the picker.
@MainActor
extension KeyBindings {
    static func groupsView(_ key: Key, model: AppModel) {
        let membersFocused = model.groupsView.focus == .members
        switch key {
        case .character("j"), .down: model.moveInGroups(.down)
        case .character("k"), .up: model.moveInGroups(.up)
        case .pageDown, .control("f"), .character(" "): model.moveInGroups(.pageDown)
        case .pageUp, .control("b"): model.moveInGroups(.pageUp)
        case .character("g"), .home: model.moveInGroups(.top)
        case .character("G"), .end: model.moveInGroups(.bottom)
        case .enter, .character("l"), .right: model.moveInGroups(.members)
        case .escape:
            // Out of the members first; then Esc drops the search in force.
            if membersFocused { model.moveInGroups(.groups) } else { model.clearSearch() }
        case .character("h"), .left: model.moveInGroups(.groups)
        case .character("/"): model.startSearch()
        case .tab: model.toggleMainView()
        case .character("n"): model.newGroup()
        case .character("e"), .function(2): model.renameSelectedGroup()
        case .character("a"), .character("+"): model.addMemberToSelectedGroup()
        case .character("x"), .character("-"): model.removeSelectedMember()
        case .character("d"), .delete: if membersFocused { model.removeSelectedMember() } else { model.deleteSelectedGroup() }
        case .character("r"): model.retry()
        case .character("R"), .control("r"): model.refresh()
        case .character("?"), .function(1): model.showHelp()
        case .character("q"): model.requestQuit()
        default: break
        }
    }

    static func prompt(_ key: Key, prompt: PromptModel, model: AppModel) {
        switch key {
        case .enter: model.confirm()
        case .escape: model.close()
        default:
            if let edit = textEdit(for: key) { prompt.edit(edit) }
        }
    }

    static func picker(_ key: Key, picker: PickerModel, model: AppModel) {
        switch key {
        case .enter: model.confirm()
        case .escape: model.close()
        case .down, .tab, .control("n"): picker.moveDown()
        case .up, .backTab, .control("p"): picker.moveUp()
        case .control("r"): model.retry()
        default:
            if let edit = textEdit(for: key) { picker.edit(edit) }
        }
    }

    /// The groups view's hints. Help and Quit come third and fourth, so a bar 40 columns wide
    /// (the narrowest hint bar) still shows them: a narrow bar drops hints from the end.
    static func groupsHints(for model: AppModel) -> [Hint] {
        var hints = [Hint("Tab", "Users"), Hint("?", "Help"), Hint("q", "Quit")]
        if model.canRetry { hints.insert(Hint("r", "Retry"), at: 0) }
        guard model.hasGroups else { return hints }
        if model.groupsView.focus == .members {
            hints += [Hint("a", "Add member"), Hint("d", "Remove member"), Hint("Esc", "Groups"), Hint("j/k", "Move")]
        } else {
            hints += [Hint("/", "Search"), Hint("n", "New"), Hint("e", "Rename"), Hint("d", "Delete"), Hint("a", "Add member"),
                      Hint("Enter", "Members"), Hint("j/k", "Move")]
            if model.groupsView.search.isEmpty == false { hints.append(Hint("Esc", "Clear search")) }
        }
        hints.append(Hint("R", "Refresh"))
        return hints
    }
}
