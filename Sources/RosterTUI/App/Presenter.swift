import RosterApp
import RosterKit

/// Turns the models into what the views draw. Reads only what is on screen: the visible rows
/// of the list, never the whole directory, so a frame costs the same with ten users or a
/// million.
@MainActor
struct Presenter {
    let model: AppModel
    let serverLabel: String
    let detailRecord = Memo<User, DetailContent>()
    let listHints = Memo<KeyBindings.ListHintInputs, [Hint]>()
    let listRows = RowsMemo<Listing, ListRowContent>()
    let groupRows = RowsMemo<[Group], GroupsContent.GroupRow>()
    let memberRows = RowsMemo<[User], GroupsContent.MemberRow>()

    var spinner: String? {
        model.isLoading ? SpinnerFrames.frame(model.activity.spinnerFrame) : nil
    }

    func header() -> HeaderContent {
        let list = model.list
        let connection: HeaderContent.Connection
        if let error = list.state.error, error.isRetryable || list.state.value == nil {
            switch error.status {
            case nil: connection = .unreachable
            case 401, 403: connection = .failing("token refused")
            case let status?: connection = .failing(status >= 500 || status == 429 ? "server failing" : "request refused")
            }
        } else if list.state.value == nil {
            connection = .connecting
        } else {
            connection = .connected
        }
        // SCIM is named once the first load has told which dialect this is.
        let dialect = model.traits.dialect != .roster ? "\(model.traits.dialect.label) · " : ""
        var header = HeaderContent(server: dialect + serverLabel, userCount: list.state.value.map(\.total), connection: connection, spinner: spinner)
        header.userCountIsLowerBound = list.state.value?.totalIsLowerBound == true
        if !list.marks.isEmpty { header.marked = "\(list.marks.countLabel) marked" }
        return header
    }

    func listContent(focused: Bool) -> ListContent {
        let list = model.list
        let visible = list.visibleRows
        let listing = list.state.value
        let rows = listRows.rows(of: listing, visible: visible) {
            var rows: [ListRowContent] = []
            rows.reserveCapacity(visible.count)
            for index in visible {
                guard let row = list.row(at: index) else { break }
                switch row {
                case .user(let user):
                    rows.append(.user(UserRowContent(user)))
                case .loading:
                    rows.append(.placeholder)
                case .failed(let error):
                    // The page's first visible row carries the message; the rest of it stays quiet.
                    let startsPage = index % list.perPage == 0 || index == visible.lowerBound
                    rows.append(.failed(message: error.errorDescription ?? "Could not load these users.", isFirstOfPage: startsPage))
                }
            }
            return rows
        }
        var content = ListContent(
            rows: rows, firstIndex: visible.lowerBound, selectedIndex: list.rowCount > 0 ? list.selection : nil,
            total: listing?.total, sort: SortContent(list.sort), search: list.searchText,
            emptyMessage: emptyMessage(), spinner: rows.isEmpty ? spinner : nil, focused: focused)
        content.totalIsLowerBound = listing?.totalIsLowerBound == true
        content.showsRoles = model.traits.hasRoles
        content.filter = list.filter.summary
        content.marked = list.markedRows(in: visible.prefix(rows.count))
        return content
    }

    private func emptyMessage() -> String? {
        let list = model.list
        switch list.state {
        case .idle, .loading(previous: nil):
            return list.searchText.isEmpty ? "Loading users…" : "Searching for “\(list.searchText)”…"
        case .failed(let error, previous: nil):
            return "\(error.errorDescription ?? "Could not load the users.") Press r to retry."
        default:
            guard list.rowCount == 0 else { return nil }
            if !list.filter.isEmpty {
                return list.searchText.isEmpty
                    ? "No users are \(list.filter.summary). Press F to clear the filters."
                    : "No users match “\(list.searchText)” with \(list.filter.summary). Press F to clear the filters."
            }
            return list.searchText.isEmpty ? "No users yet. Press n to add one." : "No users match “\(list.searchText)”. Press Esc to clear the search."
        }
    }

    func detail() -> DetailContent? {
        guard let selected = model.list.selectedUser else { return nil }
        let detail = model.detail
        // The pane follows the selection once it rests (UserDetailModel.settleDelay); the
        // fetched record replaces the list's copy when it arrives. A spinner in the title only
        // when the fetch is slow enough to turn the app's spinner.
        var content = detailRecord.value(for: detail.user ?? selected) { DetailContent(user: $0) }
        content.isRefreshing = detail.state.isLoading && model.activity.isBusy
        content.problem = detail.state.error?.errorDescription
        content.showsRole = model.traits.hasRoles
        if model.showsHistory { content.showHistory(model.history.state) }
        return content
    }

    func status() -> StatusContent {
        if let line = model.line {
            switch line.purpose {
            case .search: return .search(text: line.text, cursor: line.field.cursor)
            case .filter: return .filter(text: line.text, cursor: line.field.cursor, problem: line.problem)
            // Echo off: not a character of a password is drawn, not even as a dot.
            case let purpose where purpose.isMasked: return .prompt(label: line.label, text: "", cursor: 0, problem: line.problem)
            default: return .prompt(label: line.label, text: line.text, cursor: line.field.cursor, problem: line.problem)
            }
        }
        if let message = model.statusMessage {
            return .message(message.text, isError: message.kind == .warning)
        }
        if let run = model.bulkRun, run.isActive {
            return .progress(progress(of: run))
        }
        return .none
    }

    func dialog(_ error: ErrorDialog) -> DialogContent {
        var actions: [(key: String, label: String)] = []
        if let open = error.openLabel { actions.append(("o", open)) }
        if error.canRetry { actions.append(("r", "Retry")) }
        actions.append(("Esc", "Close"))
        return DialogContent(title: error.title, message: error.message, detail: error.suggestion, actions: actions, isError: true)
    }

    func dialog(_ confirm: ConfirmModel) -> DialogContent {
        switch confirm.phase {
        case .working:
            return DialogContent(title: confirm.title, message: confirm.message, detail: "\(spinner ?? "…") Working…",
                                 actions: [], isError: confirm.isDestructive)
        case .failed(let error):
            return DialogContent(title: confirm.title, message: confirm.message,
                                 detail: "✗ \(error.errorDescription ?? "It failed.") \(error.recoverySuggestion ?? "")",
                                 actions: [("r", "Retry"), ("Esc", "Cancel")], isError: true)
        case .asking, .finished:
            return DialogContent(title: confirm.title, message: confirm.message, detail: nil,
                                 actions: [("y", confirm.confirmLabel), ("n", confirm.cancelLabel)], isError: confirm.isDestructive)
        }
    }

    func form(_ form: UserFormModel) -> FormContent {
        let fields = form.fields.map { field -> FormFieldContent in
            let kind: FormFieldContent.Kind
            switch field {
            case .name, .email, .userName:
                let state = form.textField(field) ?? TextFieldState()
                kind = .text(text: state.text, cursor: state.cursor)
            case .role:
                kind = .picker(options: form.roleOptions.map(\.rawValue), selected: form.roleOptions.firstIndex(of: form.role) ?? 0)
            case .status:
                kind = .picker(options: form.statusOptions.map(\.rawValue), selected: form.statusOptions.firstIndex(of: form.status) ?? 0)
            }
            return FormFieldContent(label: field.label, kind: kind, error: form.error(for: field))
        }
        let focusIndex = form.fields.firstIndex(of: form.focus) ?? 0
        return FormContent(title: form.title, fields: fields, focus: .field(focusIndex), submitLabel: form.submitLabel,
                           isSubmitting: form.isSubmitting, spinner: spinner, problem: form.formError)
    }
}
