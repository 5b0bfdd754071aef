import RosterApp

/// Keys to model actions, for whatever is on top of the screen. One table per context, in
/// the spirit of tig's keymaps: a key means one thing where it works and nothing elsewhere.
@MainActor
enum KeyBindings {
    static func handle(_ key: Key, model: AppModel) {
        switch model.topScreen {
        case .list:
            if let line = model.line {
                self.line(key, purpose: line.purpose, model: model)
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
        case .export:
            exportDialog(key, model: model)
        case .importer(let importer):
            importScreen(key, importer: importer, model: model)
        case .choice(let choice):
            switch key {
            case .escape, .character("q"): model.close()
            case .character(let character): choice.choose(character)
            default: break
            }
        case .bulkSummary:
            switch key {
            case .character("r"): model.retry()
            case .escape, .enter, .character("q"): model.close()
            default: break
            }
        case .recentChanges(let changes):
            recentChanges(key, changes: changes, model: model)
        }
    }

    private static func list(_ key: Key, model: AppModel) {
        switch key {
        case .character("j"), .down: model.moveDown()
        case .character("k"), .up: model.moveUp()
        case .pageDown, .control("f"): model.pageDown()
        case .pageUp, .control("b"): model.pageUp()
        case .character("g"), .home: model.moveToTop()
        case .character("G"), .end: model.moveToBottom()
        case .character("/"): model.startSearch()
        case .escape: if model.isBulkRunning { model.stopBulk() } else { model.clearSearch() }
        case .character(" "): model.toggleMark()
        case .character("*"): model.markAllMatching()
        case .character("u"): model.unmarkAll()
        case .character("b"): model.openBulkMenu()
        case .character("f"): model.startFilter()
        case .character("F"): model.clearFilters()
        case .character("t"): model.cycleStatusFilter()
        case .character("o"): model.cycleRoleFilter()
        case .character("y"): model.copySelectedEmail()
        case .character("h"): model.toggleHistory()
        case .character("x"): model.startExport()
        case .character("i"): model.startImport()
        case .character("s"): model.cycleSort()
        case .character("S"): model.toggleSuspended()
        case .character("P"): model.startPasswordReset()
        case .character("L"): model.startUnlock()
        case .character("U"): model.openRecentChanges()
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

    private static func exportDialog(_ key: Key, model: AppModel) {
        switch key {
        case .character("r"): model.retry()
        case .enter: model.confirm()
        case .escape, .character("q"): model.close()
        default: break
        }
    }

    private static func importScreen(_ key: Key, importer: ImportModel, model: AppModel) {
        switch (importer.phase, key) {
        case (.mapping, .character("h")), (.mapping, .left): return importer.cycleField(by: -1)
        case (.mapping, .character("l")), (.mapping, .right): return importer.cycleField(by: 1)
        case (.askingGroups, .character("n")): return importer.answerGroups(create: false)
        case (.preview, .character("m")): return importer.startMapping()
        case (.preview, .character("c")): return importer.nextMode()
        case (.preview, .tab), (.finished, .tab): return importer.nextListing()
        default: break
        }
        switch key {
        case .character("j"), .down: importer.scroll(by: 1)
        case .character("k"), .up: importer.scroll(by: -1)
        case .pageDown, .character(" "), .control("f"): importer.scroll(by: max(1, importer.visibleRowCount - 1))
        case .pageUp, .control("b"): importer.scroll(by: -max(1, importer.visibleRowCount - 1))
        case .character("g"), .home: importer.scroll(by: -Int.max / 2)
        case .character("G"), .end: importer.scroll(by: Int.max / 2)
        case .enter, .character("y"): model.confirm()
        case .escape, .character("n"), .character("q"): model.close()
        default: break
        }
    }

    /// The line at the bottom: the search also moves the list under it.
    private static func line(_ key: Key, purpose: LineEditor.Purpose, model: AppModel) {
        switch key {
        case .enter: model.commitLine()
        case .escape: model.cancelLine()
        case .control("g") where purpose == .newPassword: model.generatePassword()
        case .down where purpose == .search: model.moveDown()
        case .up where purpose == .search: model.moveUp()
        case .pageDown where purpose == .search: model.pageDown()
        case .pageUp where purpose == .search: model.pageUp()
        default:
            if let edit = textEdit(for: key) { model.editLine(edit) }
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
        case .character("o"): model.openFound()
        case .enter: if !model.openFound() { model.retry() }
        case .character("r"): model.retry()
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

    /// What the list's hint bar holds, from everything it depends on.
    struct ListHintInputs: Equatable {
        /// The marks' count label, nil without marks.
        var marked: String?
        var bulkRunning: Bool
        var searching: Bool
        var canRetry: Bool
        var filtered: Bool
        var hasGroups: Bool
    }

    private static func listHints(_ inputs: ListHintInputs) -> [Hint] {
        var hints: [Hint]
        if let marked = inputs.marked {
            // With marks, b, S, d and y act on them: those come first.
            hints = [Hint("j/k", "Move"), Hint("Space", "Mark"), Hint("b", "Bulk: \(marked)"), Hint("u", "Unmark"),
                     Hint("S", "Suspend marked"), Hint("d", "Delete marked"), Hint("/", "Search")]
        } else {
            hints = [Hint("j/k", "Move"), Hint("/", "Search"), Hint("f", "Filter"), Hint("n", "New"), Hint("e", "Edit"), Hint("d", "Delete")]
        }
        let unmarked = inputs.marked == nil
        if inputs.bulkRunning {
            hints.insert(Hint("Esc", "Stop the run"), at: 0)
        } else if inputs.searching {
            hints.append(Hint("Esc", "Clear search"))
        }
        if inputs.canRetry { hints.insert(Hint("r", "Retry"), at: 0) }
        if inputs.filtered { hints.append(Hint("F", "Clear filters")) }
        // Help and Quit before the newer keys, and kept however narrow the bar.
        // Tab is how the groups view is found at all: it comes before the list's own keys.
        if inputs.hasGroups { hints.append(Hint("Tab", "Groups")) }
        if unmarked { hints.append(Hint("S", "Suspend")) }
        hints += [Hint("s", "Sort"), Hint("R", "Refresh"), Hint("?", "Help", keep: true), Hint("q", "Quit", keep: true)]
        if unmarked { hints += [Hint("Space", "Mark"), Hint("b", "Bulk")] }
        hints += [Hint("y", unmarked ? "Copy email" : "Copy emails"), Hint("t/o", "Status/role"), Hint("x", "Export"), Hint("i", "Import")]
        return hints
    }

    /// What the hint bar offers for the screen on top; the list's hints through `listHints`,
    /// the Presenter's, which a key that only moves the selection leaves as they were.
    static func hints(for model: AppModel, listHints memo: Memo<ListHintInputs, [Hint]> = Memo()) -> [Hint] {
        switch model.topScreen {
        case .list where model.line != nil:
            let enter = switch model.line?.purpose {
            case .search: "Keep"
            case .exportFile: "Export"
            case .importFile: "Preview"
            default: "Apply"
            }
            var hints = [Hint("Enter", enter), Hint("Esc", "Cancel")]
            if model.line?.purpose == .search { hints.append(Hint("↑↓", "Move")) }
            if model.canGeneratePassword { hints.append(Hint("Ctrl-G", "Generate one")) }
            return hints + [Hint("Ctrl-U", "Clear")]
        case .list where model.mainView == .groups:
            return groupsHints(for: model)
        case .list:
            let marks = model.list.marks
            let inputs = ListHintInputs(
                marked: marks.isEmpty ? nil : marks.countLabel, bulkRunning: model.isBulkRunning,
                searching: !model.list.searchText.isEmpty, canRetry: model.canRetry,
                filtered: !model.list.filter.isEmpty, hasGroups: model.hasGroups)
            return memo.value(for: inputs, make: listHints)
        case .form(let form):
            let choose = form.focus.isText ? Hint("Ctrl-U", "Clear") : Hint("←/→", "Choose")
            return [Hint("Tab", "Next field"), choose, Hint("Enter", form.submitLabel), Hint("Esc", "Cancel")]
        case .confirm(let confirm):
            return [Hint("y", confirm.confirmLabel), Hint("n", confirm.cancelLabel)]
        case .error(let dialog):
            let first = dialog.openLabel.map { [Hint("o", $0)] } ?? (dialog.canRetry ? [Hint("r", "Retry")] : [])
            return first + [Hint("Esc", "Close"), Hint("q", "Quit")]
        case .help:
            return [Hint("Esc", "Close")]
        case .choice(let choice):
            return [Hint("Esc", choice.escapeLabel)]
        case .bulkSummary:
            return model.canRetry ? [Hint("r", "Retry failures"), Hint("j/k", "Scroll"), Hint("Esc", "Close")]
                : [Hint("j/k", "Scroll"), Hint("Esc", "Close")]
        case .export(let export):
            if export.isRunning { return [Hint("Esc", "Stop")] }
            return export.canRetry ? [Hint("r", "Retry"), Hint("Esc", "Close")] : [Hint("Enter", "Close")]
        case .importer(let importer):
            switch importer.phase {
            case .preview: return [Hint("Enter", "Send"), Hint("c", "Mode"), Hint("m", "Map"), Hint("Tab", "List"), Hint("Esc", "Cancel")]
            case .mapping: return [Hint("Enter", "Use"), Hint("h/l", "Field"), Hint("j/k", "Column"), Hint("Esc", "Back")]
            case .askingGroups: return [Hint("y", "Create groups"), Hint("n", "Without them"), Hint("Esc", "Back")]
            case .running: return [Hint("Esc", "Stop"), Hint("j/k", "Scroll")]
            case .stopping: return [Hint("j/k", "Scroll")]
            case .finished: return [Hint("Enter", "Close"), Hint("j/k", "Scroll")]
            }
        case .prompt(let prompt):
            return [Hint("Enter", prompt.submitLabel), Hint("Esc", "Cancel"), Hint("Ctrl-U", "Clear")]
        case .picker(let picker):
            return [Hint("Enter", picker.actionLabel), Hint("↑↓", "Choose"), Hint("Esc", "Cancel")]
        case .recentChanges(let changes):
            return recentChangesHints(changes)
        }
    }
}
