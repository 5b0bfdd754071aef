import RosterApp
import RosterKit

/// The groups view, the picker and the prompt as the views draw them.
extension Presenter {
    func groups() -> GroupsContent {
        let view = model.groupsView
        guard model.hasGroups else {
            let message = model.list.state.value == nil
                ? "Connecting…"
                : "This directory has no groups. Press Tab for the users."
            var content = GroupsContent(groups: .init(title: "Groups", message: message), members: .init(title: "Members"))
            content.focused = model.screens.count == 1
            return content
        }
        let searched = view.search
        let title = searched.isEmpty ? "Groups" : "Groups matching “\(searched)”"
        var groups = pane(view.groups, title: title, memo: groupRows, row: { GroupsContent.GroupRow($0) }) { state in
            switch state {
            case .failed(let error, nil): "\(error.errorDescription ?? "Could not load the groups.") Press r to retry."
            case .idle, .loading(nil): "\(spinner ?? "…") Loading groups…"
            default: searched.isEmpty ? "No groups yet. Press n to make one." : "No group's name contains “\(searched)”. Esc clears the search."
            }
        }
        groups.total = view.groups.total

        let shown = view.shownGroup
        let membersTitle = shown.map { "Members of \($0.name)" } ?? "Members"
        let members = pane(view.members, title: membersTitle, memo: memberRows, row: { GroupsContent.MemberRow($0) }) { state in
            guard shown != nil else { return view.groups.items.isEmpty ? "" : "Select a group." }
            switch state {
            case .failed(let error, nil): return "\(error.errorDescription ?? "Could not load the members.") Press r to retry."
            case .idle, .loading(nil): return "\(spinner ?? "…") Loading members…"
            default: return "No members. Press a to add someone."
            }
        }
        var content = GroupsContent(groups: groups, members: members)
        content.membersFocused = view.focus == .members
        content.focused = model.screens.count == 1
        return content
    }

    /// A pane of the visible rows of `items`, each drawn as `row` makes it (or as `memo` kept
    /// them, when neither the items nor the window moved), with `message(state)` when it has none.
    private func pane<Item, Row>(
        _ items: PagedItems<Item>, title: String, memo: RowsMemo<[Item], Row>, row: (Item) -> Row,
        message: (LoadState<Int>) -> String
    ) -> GroupsContent.Pane<Row> {
        let visible = items.visibleRows
        let all = items.items
        var pane = GroupsContent.Pane<Row>(title: title, rows: memo.rows(of: all, visible: visible) { all[visible].map(row) })
        pane.firstIndex = visible.lowerBound
        pane.selectedIndex = all.isEmpty ? nil : items.selection
        pane.total = items.total
        if pane.rows.isEmpty {
            let text = message(items.state)
            pane.message = text.isEmpty ? nil : text
        }
        if let failure = items.moreFailure {
            pane.problem = failure.errorDescription ?? "Could not load more."
        }
        return pane
    }

    func picker(_ picker: PickerModel) -> PickerContent {
        let choices = picker.choices.value ?? []
        var content = PickerContent(
            title: picker.title, label: picker.label, text: picker.field.text, cursor: picker.field.cursor,
            rows: choices.map { PickerContent.Row(title: $0.title, detail: $0.detail) },
            selectedIndex: choices.isEmpty ? nil : picker.selection)
        switch picker.choices {
        case .failed(let error, _):
            content.message = "✗ \(error.errorDescription ?? "The search failed.") Ctrl-R retries."
        case .idle, .loading(nil):
            content.message = "\(spinner ?? "…") Searching…"
        default:
            if choices.isEmpty {
                content.message = picker.field.text.isEmpty ? "Nothing to choose from." : "Nothing matches “\(picker.field.text)”."
            }
        }
        switch picker.phase {
        case .working(let choice):
            content.footer = "\(spinner ?? "…") \(picker.actionLabel) \(choice.title)…"
            content.isWorking = true
        case .failed(let choice, let error):
            content.footer = "✗ \(error.errorDescription ?? "It failed.") Enter tries \(choice.title) again."
            content.footerIsError = true
        case .choosing, .finished:
            content.footer = "Enter: \(picker.actionLabel.lowercased()) the highlighted one"
        }
        return content
    }

    func form(_ prompt: PromptModel) -> FormContent {
        let field = FormFieldContent(label: prompt.label, kind: .text(text: prompt.field.text, cursor: prompt.field.cursor),
                                     error: prompt.fieldError)
        var problem: String?
        if case .failed(let error) = prompt.phase { problem = "\(error.errorDescription ?? "It failed.") Enter tries again." }
        return FormContent(title: prompt.title, fields: [field], focus: .field(0), submitLabel: prompt.submitLabel,
                           isSubmitting: prompt.isSubmitting, spinner: spinner, problem: problem)
    }
}
