import Observation
import RosterApp
import Synchronization

/// The main loop's logic, apart from the terminal: events in, model actions out, frames
/// drawn when the observed state changes. The real terminal and the tests' grid canvas both
/// drive it, so the tests run the same code a person does.
///
/// Bubble Tea's shape: an event becomes a model action; the model changes state and starts
/// its own I/O; a change of observed state schedules one frame; the frame draws the model.
@MainActor
public final class AppController {
    /// The model of the connection on screen: keys, and so writes, go to it alone.
    /// Its lists' moves schedule frames (followMoves).
    public internal(set) var model: AppModel {
        didSet { followMoves(of: model) }
    }
    let canvas: any Canvas
    var renderer: ScreenRenderer {
        didSet { trackedFrame = nil }
    }
    /// Called after each frame is drawn: the terminal sends it.
    private let present: @MainActor () -> Void
    private var frame = 0
    public private(set) var exitCode: Int32?
    /// Frames drawn so far (for tests and for checking that idle means no frames).
    public private(set) var framesDrawn = 0
    /// Of those, the frames moved from the last tracked one (`moveTrackedFrame`), for tests.
    public private(set) var framesMoved = 0
    /// Moved frames that differed from the frame derived in full (checked in debug builds
    /// only, and drawn in full instead): the tests expect none.
    public private(set) var movedFrameMismatches = 0

    public init(model: AppModel, canvas: any Canvas, serverLabel: String, present: @escaping @MainActor () -> Void = {}) {
        self.model = model
        self.canvas = canvas
        self.renderer = ScreenRenderer(presenter: Presenter(model: model, serverLabel: serverLabel))
        self.present = present
        followMoves(of: model)
    }

    /// Named connections the `C` picker switches between (AppController+Connections.swift).
    var connections: ConnectionSwitching?

    /// Sizes the list to the screen, starts loading, and draws the first frame: at once, or,
    /// given a `grace`, when the first page has come or the grace has passed, whichever is
    /// first. A near server's list is then the first frame, not "Loading users…" and the list
    /// after it: one frame's work and bytes, not two, while the page is on its way
    /// (docs/benchmarks.md, "Issue 28, eleventh pass").
    public func start(firstFrameGrace grace: Duration = .zero) {
        updateViewport()
        model.start()
        guard grace > .zero, model.list.state.isLoading else { return render() }
        let drawn = frame
        withObservationTracking {
            _ = model.list.state
        } onChange: {
            Task { @MainActor [weak self] in self?.renderIfStale(since: drawn) }
        }
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: grace)
            self?.renderIfStale(since: drawn)
        }
        // The main thread is idle while the page is on its way: the frame is derived once then,
        // unshown, so the first frame finds the presenter's code and the model's key paths (each
        // made, and its types looked up by name, at its first use) ready. Not once the page is
        // in: its frame is next, and warms them itself.
        Task { @MainActor [weak self] in
            guard let self, frame == drawn, model.list.state.isLoading else { return }
            _ = renderer.content(size: canvas.size)
        }
    }

    /// Handles a batch of events read together, then draws once.
    /// Returns false when the app should stop (`exitCode` says how).
    @discardableResult
    public func handle(_ events: [TerminalEvent]) -> Bool {
        handlingEvents.store(true, ordering: .relaxed)
        defer { handlingEvents.store(false, ordering: .relaxed) }
        if events.contains(where: \.isInput) { model.notePersonActing() }
        for event in events {
            handle(event)
            if model.isQuitRequested, exitCode == nil { exitCode = 0 }
            if exitCode != nil { return false }
        }
        model.foldProgressIntoFrame()
        handlingEvents.store(false, ordering: .relaxed)
        render()
        return true
    }

    /// True while a batch of events is handled: the frame drawn right after shows every change
    /// they make, so a change then needs no frame of its own (a task per key, for nothing).
    /// Cleared before that frame: a change made while drawing still schedules one.
    private nonisolated let handlingEvents = Atomic<Bool>(false)

    private func handle(_ event: TerminalEvent) {
        switch event {
        case .key(.control("l")):
            invalidateNextFrame = true
            renderer.invalidate()
        case .key(let key):
            if handleConnectionKey(key) { return }
            if handleReviewKey(key) { return }
            if model.topScreenScrolls, let delta = helpScrollDelta(for: key) {
                helpScroll = min(max(0, helpScroll + delta), helpScrollLimit)
            } else {
                KeyBindings.handle(key, model: model)
            }
        case .mouse(let mouse):
            handleMouse(mouse)
        case .resize:
            renderer.invalidate()
            updateViewport()
        case .quit(let signal):
            if signal == 2 {
                // Ctrl-C is a quit key like q: a changed form asks first.
                model.requestQuit()
            } else {
                // Being told to stop from outside (SIGTERM, SIGHUP) cannot wait for an answer:
                // a changed form is kept for the next start instead.
                model.quitKeepingDraft()
                exitCode = 128 + signal
            }
        case .suspend, .resume:
            invalidateNextFrame = true
            renderer.invalidate()
        }
    }

    /// How far the help (or a bulk run's summary) is scrolled: view state, so it lives here
    /// rather than in a model.
    private var helpScroll = 0
    private var helpScrollLimit = 0

    private func helpScrollDelta(for key: Key) -> Int? {
        switch key {
        case .character("j"), .down: 1
        case .character("k"), .up: -1
        case .pageDown, .character(" "), .control("f"): 10
        case .pageUp, .control("b"): -10
        case .character("g"), .home: -10_000
        case .character("G"), .end: 10_000
        default: nil
        }
    }

    /// Set when the whole screen must be sent again (Ctrl-L, after a resume).
    public internal(set) var invalidateNextFrame = false

    func updateViewport() {
        if let layout = ScreenLayout(size: canvas.size) {
            model.setListViewport(height: layout.visibleRows)
            model.setGroupsViewport(height: GroupsView.visibleRows(in: layout))
        }
    }

    private func handleMouse(_ mouse: MouseEvent) {
        guard let layout = ScreenLayout(size: canvas.size), model.screens.count == 1, model.mainView == .users,
              connectionPicker == nil else { return }
        switch mouse.kind {
        case .wheelUp: model.scroll(by: -3)
        case .wheelDown: model.scroll(by: 3)
        case .click, .press, .doubleClick:
            // Rows start below the list's border and column titles.
            let firstRowLine = layout.list.row + 2
            let rows = Rect(row: firstRowLine, column: layout.list.column + 1, width: layout.list.width - 2, height: layout.visibleRows)
            guard rows.contains(mouse.point) else { return }
            let index = model.list.visibleRows.lowerBound + (mouse.point.row - firstRowLine)
            guard index < model.list.rowCount else { return }
            model.select(row: index)
            if mouse.kind == .doubleClick { model.editSelected() }
        case .release:
            break
        }
    }

    /// Draws a frame now, and arranges for the next one when anything it read changes.
    ///
    /// The frame is drawn and sent untracked; its content is then derived a second time under
    /// `withObservationTracking`, after the bytes are out. Registering a frame's reads with
    /// Observation is a fifth of a key's work, and a key's time is the time to its bytes: work
    /// after them is not waited for (docs/benchmarks.md, "Issue 28, thirteenth pass").
    public func render() {
        frame += 1
        framesDrawn += 1
        let drawn = frame
        if !model.topScreenScrolls { helpScroll = 0 }
        renderer.fitScreens(to: canvas.size)
        if connectionPicker == nil, moveTrackedFrame(), let moved = trackedFrame {
            helpScrollLimit = renderer.draw(moved, on: canvas, helpScroll: helpScroll)
            present()
            framesMoved += 1
            model.frameSent()
            return
        }
        let shown = renderer.content(size: canvas.size, connectionPicker: connectionPicker.map(pickerContent))
        helpScrollLimit = renderer.draw(shown, on: canvas, helpScroll: helpScroll)
        present()
        model.frameSent()
        retireTracking()
        var watched: FrameContent?
        trackedStateChanged.store(false, ordering: .relaxed)
        withObservationTracking {
            _ = trackingEpoch.value
            watched = renderer.content(size: canvas.size, connectionPicker: connectionPicker.map(pickerContent))
        } onChange: { [weak self] in
            // Runs before the change lands; the frame is drawn after it, unless a frame
            // derived in full was drawn in between (a key's own) or the next frame retires it.
            guard let self, !retiring.load(ordering: .relaxed) else { return }
            trackedStateChanged.store(true, ordering: .relaxed)
            guard !handlingEvents.load(ordering: .relaxed) else { return }
            Task { @MainActor [weak self] in self?.renderIfTrackedStateChanged() }
        }
        trackedFrame = watched
        // A change made while the frame was being sent is not missed: it gets a frame.
        if watched != shown {
            Task { @MainActor [weak self] in self?.renderIfStale(since: drawn) }
        }
    }

    /// The last tracked frame, or the last frame moved from it: while nothing it read that
    /// Observation watches has changed, the next frame differs from it only where the lists'
    /// positions decide (ScreenRenderer.movePositions(in:)).
    private var trackedFrame: FrameContent?
    /// Set once anything the last tracked frame read has changed: the next frame is derived
    /// in full, and tracked again.
    private nonisolated let trackedStateChanged = Atomic<Bool>(true)

    /// Makes the last tracked frame the next one when nothing observed has changed since: a key
    /// that moves a selection derives the list and draws it, and the registrations of the
    /// tracked frame stay as they are (docs/benchmarks.md, "Issue 28, seventeenth pass").
    private func moveTrackedFrame() -> Bool {
        guard !trackedStateChanged.load(ordering: .relaxed), trackedFrame?.size == canvas.size,
              renderer.movePositions(in: &trackedFrame!) else { return false }
        #if DEBUG
        // Debug builds (every test, and `make run`) check the shortcut against the frame derived
        // in full. A difference is counted for the tests and the full frame is drawn: a person's
        // session shows the right screen rather than stop.
        if trackedFrame != renderer.content(size: canvas.size) {
            movedFrameMismatches += 1
            return false
        }
        #endif
        return true
    }

    private func renderIfStale(since drawn: Int) {
        guard frame == drawn, exitCode == nil else { return }
        render()
    }

    private func renderIfTrackedStateChanged() {
        guard trackedStateChanged.load(ordering: .relaxed), exitCode == nil else { return }
        render()
    }

    /// Read by every tracked frame, and changed by the next frame after its bytes are out:
    /// cancelling the last frame's registrations there, not in the next key's first change
    /// (docs/benchmarks.md, "Issue 28, sixteenth pass").
    private let trackingEpoch = TrackingEpoch()
    /// True while the epoch changes: the retired frame's onChange schedules nothing.
    private nonisolated let retiring = Atomic<Bool>(false)
    /// The model whose lists' moves (not observed) schedule a frame.
    private weak var followedModel: AppModel?

    private func retireTracking() {
        retiring.store(true, ordering: .relaxed)
        trackingEpoch.value &+= 1
        retiring.store(false, ordering: .relaxed)
    }

    /// The lists' selections and first rows are not observed (UserListModel.selection): a move
    /// made outside a key (a reload that keeps the selected user, a page that arrives) is drawn.
    private func followMoves(of model: AppModel) {
        guard followedModel !== model else { return }
        followedModel = model
        model.list.reportsSelectionAfterFrame = true
        let moved: @MainActor () -> Void = { [weak self] in
            guard let self, !handlingEvents.load(ordering: .relaxed) else { return }
            let drawn = frame
            Task { @MainActor [weak self] in self?.renderIfStale(since: drawn) }
        }
        model.list.onMove = moved
        model.groupsView.groups.onMove = moved
        model.groupsView.members.onMove = moved
    }
}

/// A value every tracked frame reads, so the next frame can retire its registrations.
@MainActor
@Observable
final class TrackingEpoch {
    var value = 0
}

extension AppModel {
    /// The screens on top that scroll with j/k: the help and a bulk run's summary.
    var topScreenScrolls: Bool {
        switch topScreen {
        case .help, .bulkSummary: true
        default: false
        }
    }
}
