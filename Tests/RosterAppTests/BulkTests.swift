import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Marks and bulk runs: "all matching" across pages never loaded, partial failure and retrying
/// just the failures, Esc mid-run, 429 `Retry-After`, and the concurrency limit.
@Suite("Bulk actions", .timeLimit(.minutes(5)))
@MainActor
struct BulkTests {
    let clock = ManualClock()

    /// `count` users, every one active (so each suspend is one update).
    static func activeUsers(_ count: Int) -> [User] {
        (1...count).map { number in
            var user = User.fixture(number: number)
            user.status = .active
            return user
        }
    }

    func app(_ repository: InMemoryDirectory, perPage: Int = 50, traits: DirectoryTraits = .rosterAPI) async -> AppModel {
        await repository.setTraits(traits)
        let app = AppModel(directory: repository, clock: clock, perPage: perPage)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        return app
    }

    /// Confirms the question on top (the bulk confirmation).
    func confirm(_ app: AppModel, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .confirm(let question) = app.topScreen else {
            Issue.record("no question on top: \(app.topScreen)", sourceLocation: sourceLocation)
            return
        }
        #expect(question.phase == .asking, sourceLocation: sourceLocation)
        app.confirm()
    }

    func updatedIDs(_ repository: InMemoryDirectory) async -> [String] {
        await repository.calls.compactMap { if case .update(let id, _) = $0 { id } else { nil } }
    }

    @Test func allMatchingMarksEveryUserOfTheQueryAcrossPagesNeverLoaded() async throws {
        let repository = InMemoryDirectory(users: Self.activeUsers(1000))
        let app = await app(repository)
        #expect(app.list.cachedPageCount <= 2, "only the first pages are loaded")
        app.markAllMatching()
        #expect(app.list.marks.count == 1000)
        #expect(app.list.isMarked(row: 0) && app.list.isMarked(row: 9))
        app.toggleMark() // unmarks the first user, moves down
        #expect(app.list.marks.count == 999)
        #expect(!app.list.isMarked(row: 0))
        #expect(app.list.selection == 1)
        // The frame's one pass over the rows on screen: every row but the unmarked first.
        #expect(app.list.markedRows(in: 0..<20) == Set(1..<20))

        app.toggleSuspended() // S with marks: the bulk question, not the one user
        guard case .confirm(let question) = app.topScreen else { Issue.record("no question"); return }
        #expect(question.message.hasPrefix("Suspend 999 users?"))
        app.confirm()
        #expect(app.list.marks.isEmpty, "the marks went into the run")
        await app.activity.waitForLoads()

        let run = try #require(app.bulkRun)
        #expect(run.phase == .finished)
        #expect(run.progress.succeeded == 999)
        #expect(run.progress.failed == 0)
        let finds = await repository.listCalls().filter { $0.perPage == EveryPage.largestPageSize }
        #expect(finds.map(\.page) == [1, 2, 3, 4, 5], "read page by page when the run started")
        let updated = await updatedIDs(repository)
        #expect(updated.count == 999, "one write per user, no reads: the run had just read them")
        #expect(Set(updated).count == 999)
        #expect(await repository.storedUser(id: User.fixture(number: 1).id)?.status == .active, "the unmarked user is left alone")
        #expect(await repository.storedUser(id: User.fixture(number: 1000).id)?.status == .suspended, "a user on a page never loaded")
        #expect(app.statusMessage?.text.hasPrefix("Suspended 999 users in") == true, "\(app.statusMessage?.text ?? "")")
    }

    @Test func allMatchingIsTheSearchAndFiltersAndSkipsUsersAlreadySo() async throws {
        // Every fourth user is suspended already.
        let repository = InMemoryDirectory(users: (1...300).map { number in
            var user = User.fixture(number: number)
            user.status = number % 4 == 0 ? .suspended : .active
            return user
        })
        let app = await app(repository)
        app.cycleRoleFilter() // admin: every third fixture
        await app.activity.waitForLoads()
        app.markAllMatching()
        #expect(app.list.marks.count == 100)
        app.openBulkMenu()
        guard case .choice(let menu) = app.topScreen else { Issue.record("no menu"); return }
        #expect(menu.message == "All 100 users matching role admin")
        menu.choose("s")
        confirm(app)
        await app.activity.waitForLoads()
        let run = try #require(app.bulkRun)
        // Admins are the fixtures numbered 2 mod 3; those also 0 mod 4 (8 mod 12) already are.
        #expect(run.progress.succeeded + run.progress.unchanged == 100)
        #expect(run.progress.unchanged == 25)
        #expect(await updatedIDs(repository).count == run.progress.succeeded)
        #expect(await repository.listCalls().last(where: { $0.perPage == EveryPage.largestPageSize })?.role == .admin)
    }

    @Test func aPartialFailureIsSummarisedAndRRetriesJustTheFailures() async throws {
        let repository = InMemoryDirectory(users: Self.activeUsers(10))
        let app = await app(repository)
        for _ in 0..<5 { app.toggleMark() }
        #expect(app.list.marks.count == 5)
        await repository.failNext(.update, with: .conflict(ErrorBody(code: "email_taken", message: "Another user already has that email.")))
        await repository.failNext(.update, with: .serverError(status: 500, nil))
        app.toggleSuspended()
        confirm(app)
        await app.activity.waitForLoads()

        guard case .bulkSummary(let run) = app.topScreen else { Issue.record("no summary: \(app.topScreen)"); return }
        #expect(run.progress.succeeded == 3)
        #expect(run.progress.failed == 2)
        #expect(run.failures.map(\.reason).contains("Another user already has that email."))
        #expect(app.canRetry)
        let failed = Set(run.failures.map(\.user.id))
        let callsBefore = await repository.calls.count

        app.retry() // r in the summary
        await app.activity.waitForLoads()
        let retried = await repository.calls.dropFirst(callsBefore)
        let retriedIDs = Set(retried.compactMap { call -> String? in
            switch call {
            case .get(let id), .update(let id, _): id
            default: nil
            }
        })
        #expect(retriedIDs == failed, "only the two failures were sent again")
        #expect(app.topScreen == .list)
        #expect(app.bulkRun?.progress.succeeded == 2)
        for number in 1...5 { #expect(await repository.storedUser(id: User.fixture(number: number).id)?.status == .suspended) }
        #expect(await repository.storedUser(id: User.fixture(number: 6).id)?.status == .active)
    }

    @Test func escStopsAfterTheRequestsInFlightAndTheSummarySaysWhatRan() async throws {
        let repository = InMemoryDirectory(users: Self.activeUsers(10))
        let app = await app(repository)
        for _ in 0..<10 { app.toggleMark() }
        var gates: [CallGate] = []
        for _ in 0..<4 { gates.append(await repository.holdNext(.get)) }
        app.toggleSuspended()
        confirm(app)
        for gate in gates { await gate.waitForArrivals() }
        #expect(app.bulkRun?.inFlight == 4)

        app.stopBulk() // Esc
        #expect(app.bulkRun?.phase == .stopping)
        for gate in gates { gate.open() }
        await app.activity.waitForLoads()

        guard case .bulkSummary(let run) = app.topScreen else { Issue.record("no summary: \(app.topScreen)"); return }
        #expect(run.wasStopped)
        #expect(run.progress.succeeded == 4, "the requests in flight finished")
        #expect(run.notStarted == 6)
        #expect(await repository.callCount(.get) == 4, "no new user was started after Esc")
        #expect(await repository.callCount(.update) == 4)
    }

    @Test func a429WithRetryAfterHoldsEveryWorkerUntilTheWaitIsOver() async throws {
        let repository = InMemoryDirectory(users: Self.activeUsers(20))
        let app = await app(repository)
        app.markAllMatching()
        await repository.failNext(.update, with: .rateLimited(retryAfter: .seconds(5), nil))
        app.toggleSuspended()
        confirm(app)
        let run = try #require(app.bulkRun)
        #expect(await eventuallyAfterYields { run.phase == .running })
        for _ in 0..<1000 { await Task.yield() }
        #expect(run.inFlight == 0, "every worker waits")
        // The 429 and the requests already in flight beside it (a worker that finished before
        // the 429 was counted may have started one more), then nothing.
        let sent = await repository.callCount(.update)
        #expect(sent >= BulkRun.concurrency && sent < 2 * BulkRun.concurrency)

        await clock.advance(by: .milliseconds(4900))
        #expect(await repository.callCount(.update) == sent, "nothing before Retry-After")
        #expect(run.progress.rateLimitedFor == .seconds(5))
        await clock.advance(by: .milliseconds(100))
        await app.activity.waitForLoads()
        #expect(run.phase == .finished)
        #expect(run.progress.succeeded == 20)
        #expect(run.progress.failed == 0)
        #expect(await repository.callCount(.update) == 21, "the turned-away user sent once more, nobody twice else")
    }

    @Test func atMostFourRequestsAreInFlight() async throws {
        let repository = InMemoryDirectory(users: Self.activeUsers(12))
        let app = await app(repository)
        app.markAllMatching()
        var gates: [CallGate] = []
        for _ in 0..<12 { gates.append(await repository.holdNext(.update)) }
        app.toggleSuspended()
        confirm(app)
        for gate in gates.prefix(4) { await gate.waitForArrivals() }
        for _ in 0..<1000 { await Task.yield() }
        #expect(gates[4].arrivals == 0, "a fifth waits for one of the four")
        #expect(app.bulkRun?.inFlight == 4)
        gates[0].open()
        await gates[4].waitForArrivals()
        for _ in 0..<1000 { await Task.yield() }
        #expect(gates[5].arrivals == 0)
        #expect(await repository.callCount(.update) == 5)
        for gate in gates { gate.open() }
        await app.activity.waitForLoads()
        #expect(app.bulkRun?.progress.succeeded == 12)
    }

    @Test func addingAllMatchingToAGroupLooksTheGroupUpAndSkipsMembers() async throws {
        let sales = GroupReference(id: "g-sales", name: "Sales")
        var users = Self.activeUsers(30)
        users[0].groups = [sales] // user 1 is a member already; "User 00000" matches users 1–9
        let repository = InMemoryDirectory(users: users)
        let app = await app(repository, traits: DirectoryTraits(dialect: .roster, hasGroups: true))
        #expect(await eventuallyAfterYields { app.traits.hasGroups })
        app.startSearch()
        for character in "User 000000" { app.editLine(.insert(String(character))) }
        app.commitLine()
        await app.activity.waitForLoads()
        app.markAllMatching()
        #expect(app.list.marks.count == 9)
        app.openBulkMenu()
        guard case .choice(let menu) = app.topScreen else { Issue.record("no menu"); return }
        #expect(menu.options.map(\.key).contains("g"))
        menu.choose("g")
        let prompt = try #require(app.line)
        #expect(prompt.label.contains("Add 9 users to the group"))
        for character in "sales" { app.editLine(.insert(String(character))) }
        app.commitLine()
        await app.activity.waitForLoads()
        guard case .confirm(let question) = app.topScreen else { Issue.record("no question: \(app.topScreen)"); return }
        #expect(question.message.hasPrefix("Add 9 users to Sales?"))
        app.confirm()
        await app.activity.waitForLoads()
        let added = await repository.calls.compactMap { if case .changeMembers(let group, let change) = $0 { group == "g-sales" ? change.add.first : nil } else { nil } }
        #expect(added.count == 8, "the member already in is not sent")
        #expect(!added.contains(users[0].id))
        #expect(await repository.storedUser(id: users[8].id)?.groups == [sales])
    }

    @Test func yWithMarksCopiesTheirEmailsAndAllMatchingIsReadFirst() async throws {
        let clipboard = CopyTests.RecordingClipboard()
        let repository = InMemoryDirectory(users: Self.activeUsers(300))
        await repository.setTraits(.rosterAPI)
        let app = AppModel(directory: repository, clock: clock, clipboard: clipboard)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        app.toggleMark()
        app.toggleMark()
        app.copySelectedEmail()
        #expect(clipboard.copied.last == [User.fixture(number: 1).email, User.fixture(number: 2).email].joined(separator: "\n"))
        #expect(app.statusMessage?.text == "Copied 2 emails")

        app.markAllMatching()
        app.copySelectedEmail()
        await app.activity.waitForLoads()
        let lines = clipboard.copied.last?.split(separator: "\n") ?? []
        #expect(lines.count == 300, "pages never loaded included")
        #expect(lines.last.map(String.init) == User.fixture(number: 300).email)
        #expect(app.statusMessage?.text == "Copied 300 emails")
    }

    @Test func quittingDuringARunAsksThenQuitsOnceTheRequestsInFlightAreAnswered() async throws {
        let repository = InMemoryDirectory(users: Self.activeUsers(10))
        let app = await app(repository)
        app.markAllMatching()
        var gates: [CallGate] = []
        for _ in 0..<BulkRun.concurrency { gates.append(await repository.holdNext(.update)) }
        app.toggleSuspended()
        confirm(app)
        for gate in gates { await gate.waitForArrivals() }
        app.requestQuit()
        guard case .confirm(let question) = app.topScreen else { Issue.record("no question"); return }
        #expect(question.title == "Quit during a bulk run?")
        app.confirm()
        #expect(!app.isQuitRequested, "waits for the requests in flight")
        for gate in gates { gate.open() }
        await app.activity.waitForLoads()
        #expect(app.isQuitRequested)
        #expect(await repository.callCount(.update) == BulkRun.concurrency, "nothing new was sent")
    }

    @Test func theListStaysUsableDuringARun() async throws {
        let repository = InMemoryDirectory(users: Self.activeUsers(200))
        let app = await app(repository)
        app.markAllMatching()
        let gate = await repository.holdNext(.update)
        app.toggleSuspended()
        confirm(app)
        await gate.waitForArrivals()
        #expect(app.topScreen == .list)
        app.moveDown()
        app.moveDown()
        #expect(app.list.selection == 2)
        app.startSearch()
        #expect(app.line?.purpose == .search)
        app.cancelLine()
        gate.open()
        await app.activity.waitForLoads()
        #expect(app.bulkRun?.progress.succeeded == 200)
    }

    @Test func keysComeFirstTheRunSendsNothingNewUntilTheyPause() async throws {
        let repository = InMemoryDirectory(users: Self.activeUsers(40))
        let app = await app(repository)
        app.markAllMatching()
        var gates: [CallGate] = []
        for _ in 0..<4 { gates.append(await repository.holdNext(.update)) }
        app.toggleSuspended()
        confirm(app)
        for gate in gates { await gate.waitForArrivals() }

        app.notePersonActing() // a key, while four requests are in flight
        for gate in gates { gate.open() }
        for _ in 0..<1000 { await Task.yield() }
        #expect(await repository.callCount(.update) == 4, "the ones in flight are answered; nothing new is sent")
        #expect(app.bulkRun?.inFlight == 0)

        await clock.advance(by: BulkRun.Runner.keyGrace - .milliseconds(10))
        app.notePersonActing() // another key before the pause: the wait starts over
        await clock.advance(by: .milliseconds(20))
        for _ in 0..<1000 { await Task.yield() }
        #expect(await repository.callCount(.update) == 4)

        await clock.advance(by: BulkRun.Runner.keyGrace)
        await app.activity.waitForLoads()
        #expect(app.bulkRun?.progress.succeeded == 40, "the keys paused: the run went on")
    }
}
