import RosterApp

/// Draws the whole screen for the current state: the list and detail pane always, then
/// whatever is stacked on top. The canvas is cleared first; ncurses compares the frame with
/// the last one and sends only what changed.
@MainActor
struct ScreenRenderer {
    let presenter: Presenter

    /// Draws the frame; returns how far the help can scroll (0 when it is not open).
    @discardableResult
    func render(on canvas: any Canvas, helpScroll: Int = 0) -> Int {
        var helpScrollLimit = 0
        canvas.clear()
        canvas.setCursor(nil)
        let model = presenter.model
        guard let layout = ScreenLayout(size: canvas.size) else {
            TooSmallView.draw(size: canvas.size, on: canvas)
            return 0
        }
        let listOnTop = model.screens.count == 1
        HeaderView.draw(presenter.header(), in: layout.header, on: canvas)
        UserListView.draw(presenter.listContent(focused: listOnTop), in: layout.list, on: canvas)
        DetailPane.draw(presenter.detail(), spinner: presenter.spinner, in: layout.detail, on: canvas)
        StatusLine.draw(presenter.status(), in: layout.status, on: canvas)
        HintBar.draw(KeyBindings.hints(for: model), in: layout.hints, on: canvas)

        for screen in model.screens.dropFirst() {
            // Only the top layer may show a cursor (a form under a dialog must not).
            canvas.setCursor(nil)
            switch screen {
            case .list: break
            case .help: helpScrollLimit = HelpView.draw(KeyHelp.sections, scroll: helpScroll, layout: layout, on: canvas)
            case .error(let dialog): DialogView.draw(presenter.dialog(dialog), layout: layout, on: canvas)
            case .confirm(let confirm): DialogView.draw(presenter.dialog(confirm), layout: layout, on: canvas)
            case .form(let form): FormView.draw(presenter.form(form), layout: layout, on: canvas)
            }
        }
        return helpScrollLimit
    }
}
