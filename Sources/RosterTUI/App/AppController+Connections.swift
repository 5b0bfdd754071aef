import RosterApp

/// The controller's side of named connections: one `AppModel` a connection, opened when first
/// chosen and kept, so going back finds its list position, search, filters and marks as they
/// were. Only the model on screen receives keys, so a write goes to the connection the person
/// is looking at. Switching away while a bulk run or an import is sending is refused (the run
/// would go on writing to a connection no longer in view): stop it with Esc, or let it finish.
@MainActor
struct ConnectionSwitching {
    let catalog: ConnectionCatalog
    /// Makes the model for a connection just opened (the same options as the first one's).
    let makeModel: @MainActor (ConnectionCatalog.Opened) -> AppModel
    var current: String
    /// Each opened connection's model and header label, by profile name.
    var sessions: [String: (model: AppModel, label: String)]
    var picker: ConnectionPickerModel?
    /// The access review on screen, if one is (AppController+Review.swift).
    var review: ReviewLists?
}

extension AppController {
    /// Offers the catalog's profiles on `C`; `current` is the one `model` shows.
    public func enableConnections(
        _ catalog: ConnectionCatalog, current: String, label: String,
        makeModel: @escaping @MainActor (ConnectionCatalog.Opened) -> AppModel
    ) {
        connections = ConnectionSwitching(
            catalog: catalog, makeModel: makeModel, current: current, sessions: [current: (model, label)], picker: nil)
        canvas.setHeaderColor(catalog.profiles.first { $0.name == current }?.color)
    }

    /// The profile on screen, when connections are enabled.
    public var currentConnection: String? { connections?.current }

    /// Every connection's model opened so far (for what must be said at exit).
    public var openedModels: [AppModel] {
        connections.map { $0.sessions.values.map(\.model) } ?? [model]
    }

    public var connectionPicker: ConnectionPickerModel? { connections?.picker }

    /// The picker's keys while it is open, and `C` to open it. True when the key was used.
    func handleConnectionKey(_ key: Key) -> Bool {
        guard let connections else { return false }
        guard let picker = connections.picker else {
            guard key == .character("C"), model.screens.count == 1, model.line == nil else { return false }
            let picker = ConnectionPickerModel(profiles: connections.catalog.profiles, current: connections.current)
            picker.startProbes(connections.catalog.probe)
            self.connections?.picker = picker
            return true
        }
        switch key {
        case .escape:
            closePicker()
        case .control("r"):
            if !picker.isOpening, let profile = picker.highlightedProfile { startReview(against: profile, in: picker) }
        case .enter:
            if !picker.isOpening, let profile = picker.highlightedProfile { choose(profile, in: picker) }
        case .down, .tab, .control("n"): picker.move(by: 1)
        case .up, .backTab, .control("p"): picker.move(by: -1)
        case .backspace: picker.deleteBackward()
        case .character(let character): picker.type(String(character))
        default: break
        }
        return true
    }

    func closePicker() {
        connections?.picker?.stopProbes()
        connections?.picker = nil
        renderer.invalidate()
    }

    private func choose(_ profile: ConnectionCatalog.Profile, in picker: ConnectionPickerModel) {
        guard let connections else { return }
        if connections.review != nil, let busy = busyWork() {
            return picker.failed("\(busy) here: let it finish or stop it (Esc) before switching.")
        }
        self.connections?.review = nil
        if profile.name == connections.current, connections.review == nil { return closePicker() }
        if let busy = busyWork() {
            return picker.failed("\(busy) here: let it finish or stop it (Esc) before switching.")
        }
        if let session = connections.sessions[profile.name] {
            closePicker()
            show(session.model, label: session.label, profile: profile)
            return
        }
        picker.opening(profile.name)
        let open = connections.catalog.open
        Task { [weak self] in
            do {
                let opened = try await open(profile.name)
                self?.opened(opened, profile: profile, picker: picker)
            } catch {
                picker.failed("\(profile.name): \(error)")
            }
        }
    }

    private func opened(_ opened: ConnectionCatalog.Opened, profile: ConnectionCatalog.Profile, picker: ConnectionPickerModel) {
        guard var connections, connections.sessions[profile.name] == nil else { return }
        let model = connections.makeModel(opened)
        connections.sessions[profile.name] = (model, opened.label)
        self.connections = connections
        // Esc while it opened: kept for later, not shown.
        guard connections.picker === picker else { return }
        closePicker()
        show(model, label: opened.label, profile: profile)
        model.start()
        render()
    }

    private func show(_ model: AppModel, label: String, profile: ConnectionCatalog.Profile) {
        self.model = model
        connections?.current = profile.name
        renderer = ScreenRenderer(presenter: Presenter(model: model, serverLabel: label))
        canvas.setHeaderColor(profile.color)
        invalidateNextFrame = true
        updateViewport()
    }

    /// What on the connection on screen is still writing, if anything.
    func busyWork() -> String? {
        if model.bulkRun?.isActive == true { return "A bulk run is going on" }
        if model.runningImport != nil { return "An import is going on" }
        return nil
    }
}

extension AppController {
    /// What the picker draws: a row a profile (● marks the one on screen) with its status,
    /// and under them where the highlighted one connects, or how opening it went.
    func pickerContent(_ picker: ConnectionPickerModel) -> PickerContent {
        let shown = picker.shown
        let rows = shown.map { profile in
            PickerContent.Row(title: (profile.name == picker.current ? "● " : "  ") + profile.name,
                              detail: picker.statuses[profile.name] ?? "… checking")
        }
        var content = PickerContent(title: "Connections", label: "Profile", text: picker.filter, cursor: picker.filter.count,
                                    rows: rows, selectedIndex: shown.isEmpty ? nil : picker.highlighted)
        if shown.isEmpty { content.message = "No profile matches “\(picker.filter)”." }
        content.footer = picker.footer ?? picker.highlightedProfile?.summary
        content.footerIsError = picker.footerIsError
        content.isWorking = picker.isOpening
        return content
    }
}
