import RosterApp

/// Draws the screen for the current state: the list and detail pane always, then whatever is
/// stacked on top.
///
/// A frame redraws only what changed since the last one (tig's way): when nothing is stacked
/// on top and the size is the same, regions whose content is unchanged are not drawn at all,
/// and the list redraws only its rows that differ. Drawing an unchanged cell costs nothing on
/// the wire (ncurses sends only differences) but costs the CPU of a whole screen per key:
/// sanitising, measuring and copying every cell. Anything else (the first frame, a resize, a
/// dialog or form on top) clears and draws everything.
@MainActor
final class ScreenRenderer {
    let presenter: Presenter
    /// What the base layer shows now, when it was the top layer of the last frame.
    private var drawnBase: BaseContent?

    init(presenter: Presenter) {
        self.presenter = presenter
    }

    /// Everything the base layer (list, detail, header, hints) is drawn from.
    private struct BaseContent: Equatable {
        var size: Size
        var header: HeaderContent
        /// The users view's list, or nil when the groups view is up (and `groups` is set).
        var list: ListContent?
        var groups: GroupsContent?
        var detail: DetailContent?
        var detailSpinner: String?
        var status: StatusContent
        var hints: [Hint]
    }

    /// Forgets what is on screen, so the next frame draws everything.
    func invalidate() {
        drawnBase = nil
    }

    /// Draws the frame; returns how far the help can scroll (0 when it is not open).
    @discardableResult
    func render(on canvas: any Canvas, helpScroll: Int = 0, connectionPicker: PickerContent? = nil) -> Int {
        canvas.setCursor(nil)
        let model = presenter.model
        guard let layout = ScreenLayout(size: canvas.size) else {
            drawnBase = nil
            canvas.clear()
            TooSmallView.draw(size: canvas.size, on: canvas)
            return 0
        }
        let listOnTop = model.screens.count == 1
        let showsGroups = model.mainView == .groups
        let detail = showsGroups ? nil : presenter.detail()
        let base = BaseContent(
            size: canvas.size, header: presenter.header(), list: showsGroups ? nil : presenter.listContent(focused: listOnTop),
            groups: showsGroups ? presenter.groups() : nil,
            detail: detail, detailSpinner: detail?.isRefreshing == true ? presenter.spinner : nil,
            status: presenter.status(), hints: KeyBindings.hints(for: model))
        // Switching between the users and the groups changes every line of the body: draw all.
        let previous = drawnBase.flatMap { $0.size == base.size && listOnTop && ($0.groups == nil) == !showsGroups ? $0 : nil }
        if previous == nil { canvas.clear() }

        if base.header != previous?.header {
            HeaderView.draw(base.header, in: layout.header, on: canvas)
        }
        if let list = base.list {
            UserListView.draw(list, replacing: previous?.list, in: layout.list, on: canvas)
            if base.detail != previous?.detail || base.detailSpinner != previous?.detailSpinner || previous == nil {
                // The pane draws only its lines: the old ones must go first.
                if previous != nil { canvas.fill(layout.detail, style: .normal) }
                DetailPane.draw(base.detail, spinner: base.detailSpinner, in: layout.detail, on: canvas)
            }
        } else if let groups = base.groups, groups != previous?.groups {
            GroupsView.draw(groups, replacing: previous?.groups, in: layout.body, on: canvas)
        }
        if base.status != previous?.status || base.status.showsCursor {
            StatusLine.draw(base.status, in: layout.status, on: canvas)
        }
        if base.hints != previous?.hints {
            HintBar.draw(base.hints, in: layout.hints, on: canvas)
        }
        drawnBase = listOnTop ? base : nil

        var helpScrollLimit = 0
        for screen in model.screens.dropFirst() {
            // Only the top layer may show a cursor (a form under a dialog must not).
            canvas.setCursor(nil)
            switch screen {
            case .list: break
            case .help: helpScrollLimit = HelpView.draw(KeyHelp.sections(for: model.traits), scroll: helpScroll, layout: layout, on: canvas)
            case .error(let dialog): DialogView.draw(presenter.dialog(dialog), layout: layout, on: canvas)
            case .confirm(let confirm): DialogView.draw(presenter.dialog(confirm), layout: layout, on: canvas)
            case .form(let form): FormView.draw(presenter.form(form), layout: layout, on: canvas)
            case .choice(let choice): ChoiceView.draw(presenter.choice(choice), layout: layout, on: canvas)
            case .bulkSummary(let run):
                helpScrollLimit = BulkSummaryView.draw(presenter.summary(of: run), scroll: helpScroll, layout: layout, on: canvas)
            case .export(let export): DialogView.draw(presenter.dialog(export), layout: layout, on: canvas)
            case .importer(let model):
                model.visibleRowCount = ImportView.visibleRows(in: layout)
                ImportView.draw(presenter.importContent(model, visible: model.visibleRowCount), layout: layout, on: canvas)
            case .prompt(let prompt): FormView.draw(presenter.form(prompt), layout: layout, on: canvas)
            case .picker(let picker): PickerView.draw(presenter.picker(picker), layout: layout, on: canvas)
            case .recentChanges(let changes):
                changes.visibleRowCount = RecentChangesView.visibleRows(in: layout)
                RecentChangesView.draw(presenter.recentChanges(changes, visible: changes.visibleRowCount), layout: layout, on: canvas)
            }
        }
        if let connectionPicker {
            // Above every connection's screens; what is under it is drawn whole next time.
            canvas.setCursor(nil)
            PickerView.draw(connectionPicker, layout: layout, on: canvas)
            drawnBase = nil
        }
        return helpScrollLimit
    }
}

private extension StatusContent {
    /// The search and filter lines show the text cursor, which every frame places anew.
    var showsCursor: Bool {
        switch self {
        case .search, .filter, .prompt: true
        case .none, .message, .progress: false
        }
    }
}
