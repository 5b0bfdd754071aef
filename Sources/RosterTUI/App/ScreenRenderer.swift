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
    private var drawnBase: FrameContent.Base?

    init(presenter: Presenter) {
        self.presenter = presenter
    }

    /// Forgets what is on screen, so the next frame draws everything.
    func invalidate() {
        drawnBase = nil
    }

    /// Draws the frame; returns how far the help can scroll (0 when it is not open).
    @discardableResult
    func render(on canvas: any Canvas, helpScroll: Int = 0, connectionPicker: PickerContent? = nil) -> Int {
        fitScreens(to: canvas.size)
        return draw(content(size: canvas.size, connectionPicker: connectionPicker), on: canvas, helpScroll: helpScroll)
    }

    /// What a frame of `size` shows: every read of a model a frame makes is made here, and
    /// nothing is written (the screens that page learn their height in `fitScreens(to:)`).
    func content(size: Size, connectionPicker: PickerContent? = nil) -> FrameContent {
        var frame = FrameContent(size: size, layout: ScreenLayout(size: size), connectionPicker: connectionPicker)
        guard let layout = frame.layout else { return frame }
        let model = presenter.model
        frame.baseOnTop = model.screens.count == 1
        let showsGroups = model.mainView == .groups
        let detail = showsGroups ? nil : presenter.detail()
        frame.base = FrameContent.Base(
            size: size, header: presenter.header(), list: showsGroups ? nil : presenter.listContent(focused: frame.baseOnTop),
            groups: showsGroups ? presenter.groups() : nil,
            detail: detail, detailSpinner: detail?.isRefreshing == true ? presenter.spinner : nil,
            status: presenter.status(), hints: KeyBindings.hints(for: model, listHints: presenter.listHints))
        for screen in model.screens.dropFirst() {
            switch screen {
            case .list: break
            case .help: frame.layers.append(.help(KeyHelp.sections(for: model.traits)))
            case .error(let dialog): frame.layers.append(.dialog(presenter.dialog(dialog)))
            case .confirm(let confirm): frame.layers.append(.dialog(presenter.dialog(confirm)))
            case .form(let form): frame.layers.append(.form(presenter.form(form)))
            case .choice(let choice): frame.layers.append(.choice(presenter.choice(choice)))
            case .bulkSummary(let run): frame.layers.append(.bulkSummary(presenter.summary(of: run)))
            case .export(let export): frame.layers.append(.dialog(presenter.dialog(export)))
            case .importer(let importer):
                frame.layers.append(.importer(presenter.importContent(importer, visible: ImportView.visibleRows(in: layout))))
            case .prompt(let prompt): frame.layers.append(.form(presenter.form(prompt)))
            case .picker(let picker): frame.layers.append(.picker(presenter.picker(picker)))
            case .recentChanges(let changes):
                frame.layers.append(.recentChanges(presenter.recentChanges(changes, visible: RecentChangesView.visibleRows(in: layout))))
            }
        }
        return frame
    }

    /// Makes `frame`, derived since which nothing it read that Observation watches has
    /// changed, the next frame: derives again, in place, the parts the lists' positions decide.
    /// The selections and first rows are not observed (UserListModel.selection), so they are
    /// the only reads that can differ: a move within the screen derives the list (or the
    /// groups) and nothing else. False, and `frame` untouched, when a screen is stacked on the
    /// base or the connection picker is up: those frames are derived in full.
    func movePositions(in frame: inout FrameContent) -> Bool {
        guard frame.layers.isEmpty, frame.connectionPicker == nil else { return false }
        guard frame.base != nil else { return true }
        if frame.base!.list != nil {
            frame.base!.list = presenter.listContent(focused: frame.baseOnTop)
            // The pane shows the list's selected row until it has a user of its own, and
            // nothing while the selected row's page is loading (Presenter.detail).
            if frame.base!.detail == nil || presenter.model.detail.user == nil || presenter.model.list.selectedUser == nil {
                let detail = presenter.detail()
                frame.base!.detail = detail
                frame.base!.detailSpinner = detail?.isRefreshing == true ? presenter.spinner : nil
            }
        } else {
            frame.base!.groups = presenter.groups()
        }
        return true
    }

    /// Tells the stacked screens that page by their height how many rows a screen of `size`
    /// shows, before a frame is derived; only a changed height is written, as each write of an
    /// observed value asks for a frame.
    func fitScreens(to size: Size) {
        guard let layout = ScreenLayout(size: size) else { return }
        for screen in presenter.model.screens {
            switch screen {
            case .importer(let importer):
                let rows = ImportView.visibleRows(in: layout)
                if importer.visibleRowCount != rows { importer.visibleRowCount = rows }
            case .recentChanges(let changes):
                let rows = RecentChangesView.visibleRows(in: layout)
                if changes.visibleRowCount != rows { changes.visibleRowCount = rows }
            default:
                break
            }
        }
    }

    /// Draws `frame`, redrawing of the base layer only what differs from the last frame drawn.
    /// Returns how far the help can scroll (0 when it is not open).
    @discardableResult
    func draw(_ frame: FrameContent, on canvas: any Canvas, helpScroll: Int = 0) -> Int {
        canvas.setCursor(nil)
        guard let layout = frame.layout, let base = frame.base else {
            drawnBase = nil
            canvas.clear()
            TooSmallView.draw(size: canvas.size, on: canvas)
            return 0
        }
        let showsGroups = base.list == nil
        // Switching between the users and the groups changes every line of the body: draw all.
        let previous = drawnBase.flatMap { $0.size == base.size && frame.baseOnTop && ($0.groups == nil) == !showsGroups ? $0 : nil }
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
        drawnBase = frame.baseOnTop ? base : nil

        var helpScrollLimit = 0
        for layer in frame.layers {
            // Only the top layer may show a cursor (a form under a dialog must not).
            canvas.setCursor(nil)
            switch layer {
            case .help(let sections): helpScrollLimit = HelpView.draw(sections, scroll: helpScroll, layout: layout, on: canvas)
            case .dialog(let dialog): DialogView.draw(dialog, layout: layout, on: canvas)
            case .form(let form): FormView.draw(form, layout: layout, on: canvas)
            case .choice(let choice): ChoiceView.draw(choice, layout: layout, on: canvas)
            case .bulkSummary(let summary): helpScrollLimit = BulkSummaryView.draw(summary, scroll: helpScroll, layout: layout, on: canvas)
            case .importer(let content): ImportView.draw(content, layout: layout, on: canvas)
            case .picker(let picker): PickerView.draw(picker, layout: layout, on: canvas)
            case .recentChanges(let content): RecentChangesView.draw(content, layout: layout, on: canvas)
            }
        }
        if let connectionPicker = frame.connectionPicker {
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
