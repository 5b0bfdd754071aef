import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

/// The main loop driven by scripted key events, against the in-memory repository: the same
/// controller, presenter and views the terminal runs, drawn into a grid canvas.
@Suite("Main loop", .timeLimit(.minutes(5)))
@MainActor
struct MainLoopTests {
    let clock = ManualClock()
    let repository: InMemoryDirectory
    let model: AppModel
    let canvas: GridCanvas
    let controller: AppController

    init() {
        repository = InMemoryDirectory(users: (1...120).map { User.fixture(number: $0) } + mixedUsers, clock: clock)
        model = AppModel(directory: repository, clock: clock)
        canvas = grid(120, 40)
        controller = AppController(model: model, canvas: canvas, serverLabel: "test server")
    }

    func press(_ keys: Key...) {
        controller.handle(keys.map(TerminalEvent.key))
        #expect(controller.movedFrameMismatches == 0, "a moved frame differed from the frame derived in full")
    }

    func type(_ text: String) {
        controller.handle(text.map { .key(.character($0)) })
        #expect(controller.movedFrameMismatches == 0, "a moved frame differed from the frame derived in full")
    }

    /// Lets every timer the start left (the detail pane's settle delay) run out, and its work end.
    func settle() async {
        await clock.advance(by: .seconds(5))
        await model.activity.waitForIdle()
        for _ in 0..<1000 { await Task.yield() }
    }


    func started() async -> Bool {
        controller.start()
        return await canvas.eventuallyShows("1 / 126")
    }

    @Test("a first page that comes within the grace is the first frame: no \"Loading users…\" before it")
    func firstFrameIsTheListWhenThePageComesInTime() async throws {
        let frames = FrameLog()
        let canvas = grid(120, 40)
        let controller = AppController(model: model, canvas: canvas, serverLabel: "test server") { frames.add(canvas.text) }
        controller.start(firstFrameGrace: .seconds(60))
        #expect(await canvas.eventuallyShows("1 / 126"))
        let first = try #require(frames.all.first)
        #expect(first.contains("1 / 126") && first.contains("User 0000001"))
        #expect(!frames.all.contains { $0.contains("Loading users") })
    }

    @Test("a first page slower than the grace: \"Loading users…\" once the grace has passed, then the list")
    func loadingIsDrawnWhenTheGracePasses() async throws {
        let gate = await repository.holdNext(.list)
        controller.start(firstFrameGrace: .milliseconds(20))
        #expect(controller.framesDrawn == 0, "nothing is drawn before the grace has passed")
        // The grace is slept on the real clock: waited for in real time, up to 10 s.
        for _ in 0..<1_000 where !canvas.text.contains("Loading users…") {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(canvas.text.contains("Loading users…"))
        gate.open()
        #expect(await canvas.eventuallyShows("1 / 126"))
    }

    @Test func browsing() async throws {
        #expect(await started())
        #expect(canvas.text.contains("126 users"))
        #expect(canvas.text.contains("User 0000001"))
        press(.character("j"), .character("j"), .character("j"), .character("j"), .character("j"))
        #expect(await canvas.eventuallyShows("6 / 126"))
        // The detail pane follows the selection once it rests, with the row's data.
        await clock.advance(by: UserDetailModel.settleDelay)
        await model.activity.waitForIdle()
        let detailColumn = try #require(ScreenLayout(size: canvas.size)).detail.column
        let detail = canvas.lines.map { String($0.dropFirst(detailColumn)) }.joined(separator: "\n")
        let sixth = try await repository.listUsers(UserQuery(perPage: 10)).items[5]
        #expect(detail.contains(sixth.name))
        #expect(detail.contains(sixth.email))
        press(.character("G"))
        #expect(await canvas.eventuallyShows("126 / 126"))
        press(.home)
        #expect(await canvas.eventuallyShows("1 / 126"))
        press(.pageDown)
        #expect(await canvas.eventuallyShows("\(ScreenLayout(size: canvas.size)!.visibleRows + 1) / 126"))
    }

    @Test func searchNarrowsTheList() async throws {
        #expect(await started())
        press(.character("/"))
        let searchShown = await canvas.eventuallyShows("Search:")
        #expect(searchShown, "search line: \(canvas.lines.suffix(2))")
        type("ana")
        await clock.advance(by: UserListModel.searchDebounce)
        let titleShown = await canvas.eventuallyShows("“ana”")
        #expect(titleShown, "title: \(canvas.lines.prefix(3))")
        let positionShown = await canvas.eventuallyShows("1 / 1 ")
        #expect(positionShown, "position: \(canvas.lines.prefix(3))")
        #expect(canvas.text.contains("Ana Silva"))
        #expect(!canvas.text.contains("User 0000001"))
        press(.enter)
        #expect(await canvas.eventuallyShows("Esc  Clear search"))
        press(.escape)
        #expect(await canvas.eventuallyShows("1 / 126"))
    }

    @Test func creatingAUser() async throws {
        #expect(await started())
        press(.character("n"))
        #expect(await canvas.eventuallyShows("New user"))
        type("Zed Zulu")
        press(.tab)
        type("zed@example.com")
        press(.tab, .right)
        press(.enter)
        #expect(await canvas.eventuallyShows("Created Zed Zulu"))
        #expect(await repository.calls.contains { if case .create(let draft) = $0 { draft.name == "Zed Zulu" } else { false } })
        #expect(await canvas.eventuallyShows("127 users"))
    }

    @Test func aTakenEmailShowsUnderEmailAndKeepsWhatWasTyped() async throws {
        #expect(await started())
        press(.character("n"))
        type("Ana Again")
        press(.tab)
        type("ana@example.com")
        press(.enter)
        #expect(await canvas.eventuallyShows("This email is already taken."))
        #expect(canvas.text.contains("Ana Again"))
        // Under the Email field: the row above the message holds the label and what was typed.
        let error = try #require(canvas.find("This email is already taken."))
        #expect(canvas.lines[error.row - 1].contains("Email"))
        #expect(canvas.lines[error.row - 1].contains("ana@example.com"))
    }

    @Test func aCreateWhoseAnswerWasLostOffersTheUserFoundAndOOpensThem() async throws {
        #expect(await started())
        var landed = User.fixture(number: 500)
        landed.name = "Zed Lost"
        landed.email = "zed.lost@example.com"
        await repository.insert(landed)  // the create landed; its answer did not
        await repository.failNext(.create, with: .createOutcomeUnknown(existing: landed))
        press(.character("n"))
        type("Zed Lost")
        press(.tab)
        type("zed.lost@example.com")
        press(.enter)
        #expect(await canvas.eventuallyShows("Could not create the user"))
        // The dialog wraps its text over the list's rows: judged a line at a time.
        #expect(canvas.text.contains("a user with this email now") && canvas.text.contains("exists (Zed Lost"))
        #expect(canvas.text.contains("Submitting again would be refused as a duplicate"))
        #expect(canvas.text.contains(" o  Open Zed Lost"))
        #expect(!canvas.text.contains(" r  Retry"), "retrying would be refused, or make a second user")
        press(.character("o"))
        #expect(await canvas.eventuallyShows("Opened Zed Lost"))
        #expect(!canvas.text.contains("New user"), "the form is closed")
        #expect(model.screens == [.list])
        #expect(model.detail.user?.id == landed.id)
        #expect(await repository.callCount(.create) == 1, "sent once")
    }

    @Test func aFailedLoadShowsTheErrorDialogAndRRetries() async throws {
        await repository.failNext(.list, with: .serviceUnavailable(retryAfter: nil, nil))
        controller.start()
        #expect(await canvas.eventuallyShows("Could not load the users"))
        #expect(canvas.text.contains("The server is temporarily unavailable."))
        #expect(canvas.text.contains(" r  Retry"))
        #expect(canvas.lines[0].contains("✗ server failing"), "the server answered: it is not unreachable")
        press(.character("r"))
        #expect(await canvas.eventuallyShows("1 / 126"))
        #expect(!canvas.text.contains("Could not load the users"))
        #expect(canvas.lines[0].contains("● connected"))
    }

    @Test func aServerThatDoesNotAnswerSaysSoInTheHeader() async throws {
        await repository.failNext(.list, with: .timedOut)
        controller.start()
        #expect(await canvas.eventuallyShows("Could not load the users"))
        #expect(canvas.lines[0].contains("✗ not answering"))
    }

    /// A key's frame is drawn untracked and sent first; the tracked frame that follows it is
    /// what notices the next change, so a change made between the two and one made later are
    /// both drawn.
    @Test func changesRightAfterAKeysFrameAndLaterOnAreDrawn() async throws {
        #expect(await started())
        press(.character("j"))
        #expect(canvas.text.contains("2 / 126"), "the key's own frame, drawn before it returns")
        model.showStatus("Between the frames")
        #expect(await canvas.eventuallyShows("Between the frames"))
        model.showStatus("Later on")
        #expect(await canvas.eventuallyShows("Later on"))
    }

    /// The selection is not observed (a key draws its own frame): a move made outside a key,
    /// as a reload that keeps the selected user makes, is drawn through the list's `onMove`.
    @Test func aMoveMadeOutsideAKeyIsDrawn() async throws {
        #expect(await started())
        await settle()
        let frames = controller.framesDrawn
        model.select(row: 9)
        #expect(!canvas.text.contains("10 / 126"), "not drawn inside the move")
        #expect(await canvas.eventuallyShows("10 / 126"))
        #expect(controller.framesDrawn == frames + 1)
        press(.character("j"))
        #expect(canvas.text.contains("11 / 126"), "the key's own frame")
        for _ in 0..<1000 { await Task.yield() }
        #expect(controller.framesDrawn == frames + 2, "a key's move schedules no second frame")
    }

    /// A key that only moves the selection derives the list from the last tracked frame
    /// (AppController.moveTrackedFrame; debug builds check it against the frame derived in full), and
    /// a change after such frames is still drawn: the tracked frame's registrations stay live.
    @Test func movesAreDrawnFromTheTrackedFrameAndLaterChangesStillDrawn() async throws {
        #expect(await started())
        await settle()
        let moved = controller.framesMoved
        press(.character("j"))
        press(.character("j"))
        press(.character("k"))
        #expect(canvas.text.contains("2 / 126"))
        #expect(controller.framesMoved == moved + 3, "each move drawn from the tracked frame")
        let frames = controller.framesDrawn
        model.showStatus("Changed after the moves")
        #expect(await canvas.eventuallyShows("Changed after the moves"))
        #expect(controller.framesDrawn == frames + 1)
        #expect(controller.framesMoved == moved + 3, "a change is derived in full")
        press(.character("j"))
        #expect(canvas.text.contains("3 / 126") && canvas.text.contains("Changed after the moves"))
        #expect(controller.framesMoved == moved + 4, "tracked again, moves are drawn from it again")
    }

    /// The detail pane hears of a key's move after the key's frame is out, not before it.
    @Test func theDetailPaneHearsOfAMoveAfterTheKeysFrame() async throws {
        let canvas = grid(120, 40)
        var pendingWhenSent: [String?] = []
        let controller = AppController(model: model, canvas: canvas, serverLabel: "test server") { [model] in
            pendingWhenSent.append(model.detail.pendingUserID)
        }
        controller.start()
        #expect(await canvas.eventuallyShows("1 / 126"))
        await settle()
        pendingWhenSent = []
        controller.handle([.key(.character("j"))])
        #expect(canvas.text.contains("2 / 126"))
        #expect(pendingWhenSent == [nil], "not told while the frame was sent")
        #expect(model.detail.pendingUserID == model.list.selectedUser?.id, "told once it was out")
        await clock.advance(by: .seconds(1))
        await model.activity.waitForIdle()
        for _ in 0..<1000 where model.detail.state.isLoading { await Task.yield() }
        #expect(model.detail.user?.id == model.list.selectedUser?.id, "and it followed once the move rested")
    }

    /// A frame's reads are registered after it is sent: a change made while it is sent is
    /// still drawn (the frame registered then differs from the one drawn).
    @Test func aChangeMadeWhileAFrameIsSentIsDrawn() async throws {
        let canvas = grid(120, 40)
        var changeOnce: (@MainActor () -> Void)?
        let controller = AppController(model: model, canvas: canvas, serverLabel: "test server") {
            changeOnce?()
            changeOnce = nil
        }
        controller.start()
        #expect(await canvas.eventuallyShows("1 / 126"))
        // Nothing in flight whose answer would draw the change anyway (the detail pane's
        // settle delay run out, its user loaded).
        await settle()
        changeOnce = { [model] in model.showStatus("Changed while sent") }
        // A key bound to nothing: it starts no work whose answer would draw the change anyway.
        controller.handle([.key(.character("Z"))])
        #expect(!canvas.text.contains("Changed while sent"), "the key's frame was drawn before the change")
        #expect(await canvas.eventuallyShows("Changed while sent"))
    }

    @Test func nothingIsDrawnWhileIdle() async throws {
        #expect(await started())
        // Let every timer (the detail pane's settle delay) run out.
        await settle()
        let frames = controller.framesDrawn
        for _ in 0..<10_000 { await Task.yield() }
        #expect(controller.framesDrawn == frames)
    }

    @Test func qQuitsAndCtrlCQuitsWithoutAnError() async throws {
        #expect(await started())
        #expect(!controller.handle([.key(.character("q"))]))
        #expect(controller.exitCode == 0)

        let other = AppController(model: AppModel(directory: repository, clock: clock), canvas: grid(120, 40), serverLabel: "x")
        other.start()
        #expect(!other.handle([.quit(signal: 15)]))
        #expect(other.exitCode == 143)
    }

    @Test func resizingTo80x24MovesTheDetailPaneBelow() async throws {
        #expect(await started())
        canvas.resize(columns: 80, rows: 24)
        controller.handle([.resize(Size(columns: 80, rows: 24))])
        #expect(await canvas.eventuallyShows("1 / 126"))
        let layout = try #require(ScreenLayout(size: canvas.size))
        #expect(canvas.lines[layout.detail.row].contains("Details"))
        #expect(canvas.lines[layout.list.row].contains("Users"))
        canvas.resize(columns: 40, rows: 12)
        controller.handle([.resize(Size(columns: 40, rows: 12))])
        #expect(canvas.text.contains("Terminal too small"))
    }

    @Test func helpOpensAndCloses() async throws {
        #expect(await started())
        press(.character("?"))
        #expect(await canvas.eventuallyShows("Keys — ? or Esc to close"))
        for entry in KeyHelp.sections[0].entries.prefix(5) { #expect(canvas.text.contains(entry.label)) }
        press(.escape)
        #expect(!canvas.text.contains("Keys — "))
    }

    @Test func deletingAsksFirst() async throws {
        #expect(await started())
        press(.character("d"))
        #expect(await canvas.eventuallyShows("Delete user"))
        press(.character("n"))
        #expect(!canvas.text.contains("Delete user"))
        #expect(await repository.count == 126)
        press(.character("d"))
        press(.character("y"))
        #expect(await canvas.eventuallyShows("Deleted "))
        #expect(await repository.count == 125)
    }

    @Test func clickingARowSelectsIt() async throws {
        #expect(await started())
        let layout = try #require(ScreenLayout(size: canvas.size))
        controller.handle([.mouse(MouseEvent(kind: .click, point: Point(row: layout.list.row + 2 + 3, column: 10)))])
        #expect(await canvas.eventuallyShows("4 / 126"))
        controller.handle([.mouse(MouseEvent(kind: .wheelDown, point: Point(row: 5, column: 5)))])
        #expect(model.list.scrollOffset == 3)
    }
}

extension MainLoopTests {
    @Test func filtersShowInTheListTitleAndTheHints() async throws {
        #expect(await started())
        press(.character("t"), .character("t"))
        #expect(await canvas.eventuallyShows("status suspended"))
        #expect(canvas.text.contains(" F  Clear filters"))
        let suspended = try await repository.listUsers(UserQuery(status: .suspended)).total
        #expect(await canvas.eventuallyShows("1 / \(suspended) "))
        press(.character("F"))
        #expect(await canvas.eventuallyShows("1 / 126"))
    }

    @Test func ctrlCWithAChangedFormAsksAndSIGTERMKeepsTheDraft() async throws {
        #expect(await started())
        press(.character("n"))
        type("Zoë")
        controller.handle([.quit(signal: 2)])
        #expect(controller.exitCode == nil, "Ctrl-C with a changed form does not quit")
        #expect(canvas.text.contains("Quit without saving?"))
        #expect(canvas.text.contains("Keep editing"))
        press(.character("n"))
        #expect(canvas.text.contains("New user"))
        #expect(!canvas.text.contains("Quit without saving?"))

        controller.handle([.quit(signal: 15)])
        let terminated: Int32 = 128 + 15
        #expect(controller.exitCode == terminated)
        #expect(model.keepsDraftOnExit)
        #expect(model.unsavedDraft?.name == "Zoë")
    }

    @Test func ctrlCWithNothingChangedQuits() async throws {
        #expect(await started())
        controller.handle([.quit(signal: 2)])
        #expect(controller.exitCode == 0)
        #expect(!model.keepsDraftOnExit)
    }
}

/// What each presented frame showed, in order.
@MainActor
final class FrameLog {
    private(set) var all: [String] = []
    func add(_ text: String) { all.append(text) }
}
