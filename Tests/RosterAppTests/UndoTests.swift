import Foundation
import RosterJournal
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The change journal and undo, on the in-memory directory with a real journal file: every
/// kind of change undone, a conflict left alone (and overwritten when chosen), undo of an undo,
/// an interrupted run found at start, retention, and a password reset kept without its password.
@Suite("Undo", .timeLimit(.minutes(5)))
@MainActor
struct UndoTests {
    let scratch = TemporaryFolder("undo")
    /// The journal's folder, which the journal makes.
    var folder: String { scratch.path("state") }
    let clock = ManualClock()

    func journal() throws -> ChangeJournal {
        try ChangeJournal(path: folder + "/journal.sqlite")
    }

    func app(_ directory: InMemoryDirectory, journal: ChangeJournal) async -> AppModel {
        await directory.setTraits(DirectoryTraits(dialect: .roster, hasGroups: true, canResetPassword: true))
        let app = AppModel(directory: directory, clock: clock, perPage: 50)
        app.recorder = ChangeRecorder(journal: journal, connection: "test")
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        return app
    }

    static func users(_ count: Int, status: Status = .active) -> [User] {
        (1...count).map { number in
            var user = User.fixture(number: number)
            user.status = status
            user.role = .member
            return user
        }
    }

    func confirm(_ app: AppModel, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard case .confirm = app.topScreen else {
            Issue.record("no question on top: \(app.topScreen)", sourceLocation: sourceLocation)
            return
        }
        app.confirm()
        await app.activity.waitForLoads()
    }

    /// U, the row at `index`, u, yes: the undo runs to its end.
    func undoRow(_ index: Int, in app: AppModel) async throws -> UndoRun {
        app.openRecentChanges()
        await app.activity.waitForLoads()
        guard case .recentChanges(let changes) = app.topScreen else { throw Missing("the recent changes screen") }
        changes.move(by: index)
        changes.undoSelected()
        await app.activity.waitForLoads()
        await confirm(app)
        let undo = try #require(app.undoRun)
        #expect(undo.phase == .finished)
        app.close() // back to the list of changes
        app.close() // and the screen
        return undo
    }

    struct Missing: Error { var what: String; init(_ what: String) { self.what = what } }

    // MARK: Each kind of change

    @Test func aBulkSuspendIsJournalledAsARunAndUndoneWhole() async throws {
        let directory = InMemoryDirectory(users: Self.users(30))
        let journal = try journal()
        let app = await app(directory, journal: journal)
        app.markAllMatching()
        app.toggleSuspended()
        await confirm(app)
        #expect(app.bulkRun?.progress.succeeded == 30)
        try await journal.flush()
        let runs = try await journal.runs()
        #expect(runs.count == 1)
        #expect(runs.first?.state == .done)
        #expect(runs.first?.plan?.action == "suspend")
        let entries = try await journal.entries(ofRun: try #require(runs.first).id)
        #expect(entries.count == 30)
        #expect(entries.allSatisfy { $0.state == .done && $0.before?.user?.status == .active && $0.after?.user?.status == .suspended })

        let undo = try await undoRow(0, in: app)
        #expect(undo.restored.count == 30)
        #expect(undo.conflicts.isEmpty)
        for user in Self.users(30) { #expect(await directory.storedUser(id: user.id)?.status == .active) }
        let undoRun = try #require(try await journal.runs().first)
        #expect(undoRun.undoes == runs.first?.id, "the undo is a run of its own, pointing at the one it undid")
    }

    @Test func anEditIsUndoneButAConflictIsLeftAloneUnlessChosen() async throws {
        let directory = InMemoryDirectory(users: Self.users(3))
        let journal = try journal()
        let app = await app(directory, journal: journal)
        app.toggleSuspended() // the first user: active → suspended
        await app.activity.waitForLoads()
        let id = Self.users(3)[0].id
        #expect(await directory.storedUser(id: id)?.status == .suspended)
        // Someone else changes the status again, outside Roster.
        var theirs = try #require(await directory.storedUser(id: id))
        theirs.status = .invited
        await directory.insert(theirs)

        let undo = try await undoRow(0, in: app)
        let conflict = try #require(undo.conflicts.first)
        #expect(conflict.kind == .conflict([UndoConflict(field: "status", before: "active", roster: "suspended", now: "invited")]))
        #expect(await directory.storedUser(id: id)?.status == .invited, "their change is kept")

        // Chosen: overwrite.
        app.openRecentChanges()
        await app.activity.waitForLoads()
        guard case .recentChanges(let changes) = app.topScreen else { throw Missing("screen") }
        changes.move(by: 1) // the edit (the undo run is newest)
        changes.undoSelected()
        await confirm(app)
        app.overwriteConflicts(in: changes)
        await confirm(app)
        #expect(app.undoRun?.restored.count == 1)
        #expect(await directory.storedUser(id: id)?.status == .active)
    }

    @Test func onlyTheFieldsRosterWroteAreWeighedAndSetBack() async throws {
        let directory = InMemoryDirectory(users: Self.users(2))
        let journal = try journal()
        let app = await app(directory, journal: journal)
        app.toggleSuspended()
        await app.activity.waitForLoads()
        let id = Self.users(2)[0].id
        var theirs = try #require(await directory.storedUser(id: id))
        theirs.name = "Renamed Elsewhere"
        await directory.insert(theirs)
        let undo = try await undoRow(0, in: app)
        #expect(undo.restored.count == 1)
        let now = try #require(await directory.storedUser(id: id))
        #expect(now.status == .active)
        #expect(now.name == "Renamed Elsewhere", "a field Roster did not write stays as they left it")
    }

    @Test func profileAttributesAreJournalledAsTitleAToBAndUndoneToWhatTheyWere() async throws {
        var users = Self.users(2)
        users[0].attributes = [.title: "Engineer"]
        let directory = InMemoryDirectory(users: users)
        let journal = try journal()
        let app = await app(directory, journal: journal)
        await directory.setTraits(DirectoryTraits(dialect: .scim, attributes: UserAttribute.allCases))
        let engineer = users[0]
        var draft = engineer.draft
        draft.attributes = [.title: "Lead", .department: "Platform"]
        let asked = draft
        _ = try await app.recorder.record(.update(engineer, to: asked), landed: { (.user($0), nil) }) {
            try await directory.updateUser(id: engineer.id, with: asked)
        }
        try await journal.flush()
        let entry = try #require(try await journal.entries().first)
        #expect(entry.change == "title Engineer → Lead, department (none) → Platform")
        #expect(entry.before?.user?.attributes == [.title: "Engineer"], "the journal keeps the attributes it stores")
        #expect(await directory.storedUser(id: users[0].id)?.attributes == [.title: "Lead", .department: "Platform"])
        let undo = try await undoRow(0, in: app)
        #expect(undo.restored.count == 1)
        #expect(await directory.storedUser(id: users[0].id)?.attributes == [.title: "Engineer"], "the department it added is cleared")
    }

    @Test func anUndoCanBeUndone() async throws {
        let directory = InMemoryDirectory(users: Self.users(5))
        let journal = try journal()
        let app = await app(directory, journal: journal)
        app.markAllMatching()
        app.toggleSuspended()
        await confirm(app)
        _ = try await undoRow(0, in: app) // the suspend run
        for user in Self.users(5) { #expect(await directory.storedUser(id: user.id)?.status == .active) }
        let again = try await undoRow(0, in: app) // the undo run, newest
        #expect(again.restored.count == 5)
        for user in Self.users(5) { #expect(await directory.storedUser(id: user.id)?.status == .suspended) }
    }

    @Test func aCreateIsUndoneByDeletingAndADeleteByMakingTheUserAgainWithGroups() async throws {
        let directory = InMemoryDirectory(users: Self.users(2))
        let groups = await directory.insertGroups(named: ["Sales", "Ops"])
        let victim = Self.users(2)[1]
        await directory.insertMembers([victim.id], into: groups[0].id)
        await directory.insertMembers([victim.id], into: groups[1].id)
        let journal = try journal()
        let app = await app(directory, journal: journal)

        // Delete the second user (d, yes): the journal keeps them with their groups.
        app.moveDown()
        await app.activity.waitForLoads()
        app.deleteSelected()
        await confirm(app)
        #expect(await directory.storedUser(id: victim.id) == nil)
        let undoDelete = try await undoRow(0, in: app)
        guard case .restored(let note)? = undoDelete.outcomes.first?.kind else { throw Missing("restored") }
        #expect(note?.contains("new id") == true, "the summary says the id differs: \(note ?? "")")
        let remade = try #require(await directory.listUsers(UserQuery(search: victim.email)).items.first)
        #expect(remade.name == victim.name && remade.email == victim.email && remade.role == victim.role)
        #expect(Set(remade.groups.map(\.name)) == ["Sales", "Ops"])

        // Undo of that undo: the re-made user is deleted again (undo of a create).
        let undoCreate = try await undoRow(0, in: app)
        #expect(undoCreate.restored.count == 3, "the create and its two memberships")
        #expect(await directory.storedUser(id: remade.id) == nil)
    }

    @Test func membershipsAndGroupsAreUndone() async throws {
        let directory = InMemoryDirectory(users: Self.users(2))
        let groups = await directory.insertGroups(named: ["Sales"])
        let journal = try journal()
        let app = await app(directory, journal: journal)
        let user = Self.users(2)[0]
        let recorder = app.recorder
        try await recorder.record(.membership(user, groups[0].reference, adding: true)) {
            try await directory.addMember(user.id, to: groups[0].id)
        }
        var renamed = groups[0]
        renamed.name = "Sales EMEA"
        try await recorder.record(ChangeRecorder.Write(kind: .group, objectID: groups[0].id, label: "Sales", action: .renameGroup,
                                                      before: .group(groups[0]), after: .group(renamed))) {
            try await directory.renameGroup(id: groups[0].id, to: GroupDraft(name: "Sales EMEA"))
        }
        try await journal.flush()
        #expect(await directory.memberIDs(of: groups[0].id) == [user.id])
        _ = try await undoRow(0, in: app) // the rename, newest
        #expect(await directory.storedGroup(id: groups[0].id)?.name == "Sales")
        _ = try await undoRow(2, in: app) // past the undo run: the membership
        #expect(await directory.memberIDs(of: groups[0].id).isEmpty)
    }

    @Test func aPasswordResetIsJournalledWithoutThePasswordAndCannotBeUndone() async throws {
        let directory = InMemoryDirectory(users: Self.users(1))
        let journal = try journal()
        let app = await app(directory, journal: journal)
        let secret = "Correct-Horse-\(UUID().uuidString)"
        #expect(await eventuallyAfterYields { app.traits.canResetPassword })
        app.startPasswordReset()
        #expect(app.line != nil, "the password line")
        app.editLine(.insert(secret))
        app.commitLine()
        app.editLine(.insert(secret))
        app.commitLine()
        if case .choice(let choice) = app.topScreen { choice.choose("n") }
        await confirm(app)
        try await journal.flush()
        let entry = try #require(try await journal.entries().first)
        #expect(entry.action == .resetPassword)
        #expect(!entry.isUndoable)
        for file in ["journal.sqlite", "journal.sqlite-wal"] {
            let bytes = FileManager.default.contents(atPath: folder + "/" + file) ?? Data()
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) holds the password")
        }
        app.openRecentChanges()
        await app.activity.waitForLoads()
        guard case .recentChanges(let changes) = app.topScreen else { throw Missing("screen") }
        changes.undoSelected() // the run: its entries are read, then it says why not
        await app.activity.waitForLoads()
        #expect(app.statusMessage?.text.contains("cannot be undone") == true, "\(app.statusMessage?.text ?? "")")
    }

    // MARK: Interrupted runs

    @Test func aRunInterruptedByACrashIsFoundAtStartAndItsLandedWritesUndone() async throws {
        let directory = InMemoryDirectory(users: Self.users(6, status: .suspended))
        let journal = try journal()
        // What a SIGKILL leaves: a run still "running" of a process that is gone, four writes
        // done, one pending (it may have landed: here it did), one never sent.
        let users = Self.users(6)
        let run = JournalRun(connection: "test", what: "Suspending", count: 6, processID: Self.deadProcess(),
                             plan: JournalPlan(action: "suspend", userIDs: users.map(\.id)))
        try await journal.startRun(run)
        for (index, user) in users.prefix(5).enumerated() {
            let id = try await journal.begin(JournalEntry(
                runID: run.id, connection: "test", kind: .user, objectID: user.id, label: user.label, action: .updateUser,
                before: .user(user), after: .user({ var u = user; u.status = .suspended; return u }())))
            if index < 4 { journal.complete(id, state: .done) }
        }
        try await journal.flush()
        await directory.insert({ var u = users[5]; u.status = .active; return u }()) // the one never sent

        let app = await app(directory, journal: journal)
        app.offerInterruptedRuns()
        #expect(await eventuallyAfterYields { if case .choice = app.topScreen { true } else { false } })
        guard case .choice(let choice) = app.topScreen else { throw Missing("the question") }
        #expect(choice.message.contains("4 done, 1 may have landed, 1 not sent"), "\(choice.message)")
        #expect(choice.options.map(\.key) == ["f", "u", "l"])
        choice.choose("u")
        await app.activity.waitForLoads()
        await confirm(app)
        #expect(app.undoRun?.restored.count == 5)
        for user in users.prefix(5) { #expect(await directory.storedUser(id: user.id)?.status == .active) }
        #expect(try await journal.interruptedRuns().isEmpty, "dealt with: not offered again")
    }

    @Test func anInterruptedRunCanBeFinished() async throws {
        let users = Self.users(6)
        let directory = InMemoryDirectory(users: users)
        let journal = try journal()
        let run = JournalRun(connection: "test", what: "Suspending", count: 6, processID: Self.deadProcess(),
                             plan: JournalPlan(action: "suspend", userIDs: users.map(\.id)))
        try await journal.startRun(run)
        for user in users.prefix(2) {
            let id = try await journal.begin(JournalEntry(runID: run.id, connection: "test", kind: .user, objectID: user.id,
                                                          label: user.label, action: .updateUser, before: .user(user)))
            journal.complete(id, state: .done)
            await directory.insert({ var u = user; u.status = .suspended; return u }())
        }
        try await journal.flush()
        let app = await app(directory, journal: journal)
        app.offerInterruptedRuns()
        #expect(await eventuallyAfterYields { if case .choice = app.topScreen { true } else { false } })
        guard case .choice(let choice) = app.topScreen else { throw Missing("the question") }
        choice.choose("f")
        await app.activity.waitForLoads()
        #expect(app.bulkRun?.progress.succeeded == 4, "only the users it had not reached")
        for user in users { #expect(await directory.storedUser(id: user.id)?.status == .suspended) }
    }

    @Test func aRunOfALiveProcessIsNotInterrupted() async throws {
        let journal = try journal()
        try await journal.startRun(JournalRun(connection: "test", what: "Suspending", count: 1))
        #expect(try await journal.markInterrupted().isEmpty, "this process is running")
    }

    /// A process id that is not running: a child that has exited and been reaped.
    static func deadProcess() -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try? process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    // MARK: Retention

    @Test func retentionPrunesByAgeAndByCount() async throws {
        let journal = try journal()
        let old = Date().addingTimeInterval(-100 * 86_400)
        try await journal.startRun(JournalRun(startedAt: old, connection: "test", what: "Old", count: 3, state: .done))
        for number in 0..<3 {
            _ = try await journal.begin(JournalEntry(runID: nil, time: old, connection: "test", kind: .user, objectID: "old-\(number)",
                                                     label: "old", action: .updateUser))
        }
        for number in 0..<150 {
            _ = try await journal.begin(JournalEntry(connection: "test", kind: .user, objectID: "new-\(number)", label: "new", action: .updateUser))
        }
        let removed = try await journal.prune(before: Date().addingTimeInterval(-90 * 86_400), maximumEntries: 100)
        #expect(removed == 53)
        #expect(try await journal.entryCount() == 100)
        #expect(try await journal.entries(limit: 1000).last?.objectID == "new-50", "the oldest went first")
        #expect(try await journal.runs().isEmpty, "the old run with no entries left went too")
    }

    @Test func journalFilesArePrivate() throws {
        _ = try journal()
        var info = stat()
        #expect(stat(folder, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }
}
