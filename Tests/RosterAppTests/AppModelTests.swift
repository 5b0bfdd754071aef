import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("AppModel", .timeLimit(.minutes(5)))
@MainActor
struct AppModelTests {
    let clock = ManualClock()
    let repository: InMemoryDirectory
    let app: AppModel

    init() {
        repository = InMemoryDirectory(users: searchDirectory)
        app = AppModel(directory: repository, clock: clock)
        app.setListViewport(height: 10)
    }

    /// Starts the app and waits for the list, then for the detail pane once it settles.
    func started() async {
        app.start()
        await app.activity.waitForLoads()
        await clock.advance(by: UserDetailModel.settleDelay)
        await app.activity.waitForIdle()
    }

    func fill(_ form: UserFormModel, name: String, email: String) {
        form.focus(on: .name)
        form.setText(name, for: .name)
        form.focus(on: .email)
        form.setText(email, for: .email)
    }

    var topForm: UserFormModel? {
        if case .form(let form) = app.topScreen { form } else { nil }
    }

    var topConfirm: ConfirmModel? {
        if case .confirm(let confirm) = app.topScreen { confirm } else { nil }
    }

    var topError: ErrorDialog? {
        if case .error(let dialog) = app.topScreen { dialog } else { nil }
    }

    // MARK: Start, spinner, detail

    @Test func startShowsTheListThenTheSelectedUsersDetailThenNothingTicks() async {
        #expect(app.screens == [.list])
        app.start()
        #expect(app.isLoading)
        await app.activity.waitForLoads()
        #expect(app.list.rowCount == 6)
        #expect(app.detail.state == .loading(previous: searchDirectory[0])) // the row's copy, at once
        #expect(!app.isLoading) // settling is not loading

        await clock.advance(by: UserDetailModel.settleDelay)
        await app.activity.waitForIdle()
        #expect(app.detail.state == .loaded(searchDirectory[0]))
        #expect(!app.isLoading)
        #expect(clock.sleeperCount == 0) // no spinner, no timer: an idle app wakes nothing
    }

    @Test func theSpinnerTurnsOnlyWhileSomethingLoads() async {
        let gate = await repository.holdNext(.list)
        app.start()
        await gate.waitForArrivals()
        await clock.advance(by: .milliseconds(500))
        #expect(await eventuallyAfterYields { app.activity.spinnerFrame == 5 })
        gate.open()
        await app.activity.waitForLoads()
        #expect(!app.isLoading)
        let frame = app.activity.spinnerFrame
        await clock.advance(by: UserDetailModel.settleDelay) // the detail's quick load
        await app.activity.waitForIdle()
        await clock.advance(by: .seconds(2))
        #expect(app.activity.spinnerFrame <= frame + 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func movingTheSelectionShowsTheNewUserInTheDetailPane() async {
        await started()
        app.moveDown()
        #expect(app.detail.user == searchDirectory[0], "the pane moves once the selection rests")
        #expect(app.detail.pendingUserID == searchDirectory[1].id)
        await clock.advance(by: UserDetailModel.settleDelay)
        await app.activity.waitForIdle()
        #expect(app.detail.state == .loaded(searchDirectory[1]))
    }

    // MARK: Errors

    @Test func aFailedFirstLoadShowsTheErrorDialogAndRRetries() async throws {
        await repository.failNext(.list, with: unavailable)
        app.start()
        await app.activity.waitForLoads()
        let dialog = try #require(topError)
        #expect(dialog.title == "Could not load the users")
        #expect(dialog.message == unavailable.errorDescription)
        #expect(dialog.suggestion == unavailable.recoverySuggestion)
        #expect(dialog.canRetry)
        #expect(dialog.isRetryable)
        #expect(app.canRetry)

        app.retry()
        #expect(app.screens == [.list])
        await app.activity.waitForLoads()
        #expect(app.list.rowCount == 6)
        #expect(app.screens == [.list])
    }

    @Test func enterOnTheErrorDialogRetriesToo() async {
        await repository.failNext(.list, with: .timedOut)
        app.start()
        await app.activity.waitForLoads()
        app.confirm()
        await app.activity.waitForLoads()
        #expect(app.screens == [.list])
        #expect(app.list.rowCount == 6)
    }

    @Test func escClosesTheDialogAndRStillRetriesFromTheList() async {
        await repository.failNext(.list, with: .offline)
        app.start()
        await app.activity.waitForLoads()
        app.close()
        #expect(app.screens == [.list])
        #expect(app.list.state == .failed(.offline, previous: nil))
        #expect(app.canRetry)
        app.retry()
        await app.activity.waitForLoads()
        #expect(app.list.rowCount == 6)
        #expect(!app.canRetry)
    }

    @Test func aFailedRetryReplacesTheDialogInsteadOfStackingIt() async {
        await repository.failNext(.list, with: .offline, times: 2)
        app.start()
        await app.activity.waitForLoads()
        app.retry()
        await app.activity.waitForLoads()
        #expect(app.screens.count == 2)
        #expect(topError?.error == .offline)
    }

    @Test func aFailedRefreshKeepsTheListBehindTheDialog() async {
        await started()
        await repository.failNext(.list, with: unavailable)
        app.refresh()
        await app.activity.waitForLoads()
        #expect(topError?.title == "Could not refresh the list")
        #expect(app.list.rowCount == 6)
        #expect(app.list.row(at: 0) == .user(searchDirectory[0]))
        app.close()
        #expect(app.list.row(at: 0) == .user(searchDirectory[0]))
    }

    @Test func rOnTheListRetriesAFailedDetailLoad() async {
        app.start()
        await app.activity.waitForLoads()
        await repository.failNext(.get, with: .timedOut)
        await clock.advance(by: UserDetailModel.settleDelay)
        await app.activity.waitForIdle()
        #expect(app.detail.state.error == .timedOut)
        #expect(app.screens == [.list]) // a background failure is shown in the pane, not a dialog
        #expect(app.canRetry)
        app.retry()
        await app.activity.waitForLoads()
        #expect(app.detail.state == .loaded(searchDirectory[0]))
    }

    // MARK: Create and edit

    @Test func creatingAUserClosesTheFormSaysSoAndRefreshesTheList() async throws {
        await started()
        app.newUser()
        let form = try #require(topForm)
        #expect(form.mode == .create)
        fill(form, name: "Zoe Quinn", email: "zoe@example.com")
        let listCalls = await repository.callCount(.list)
        app.confirm() // Enter submits
        #expect(form.isSubmitting)
        await app.activity.waitForLoads()

        #expect(app.screens == [.list])
        #expect(app.statusMessage?.text == "Created Zoe Quinn")
        #expect(app.statusMessage?.kind == .info)
        #expect(await repository.callCount(.list) == listCalls + 1)
        #expect(app.list.rowCount == 7)
        #expect(app.list.selectedUser?.name == "Zoe Quinn") // it landed on screen: selected
    }

    @Test func eRightAfterACreateEditsTheNewUserWhileTheListStillReloads() async throws {
        await started()
        app.newUser()
        fill(try #require(topForm), name: "Zoe Quinn", email: "zoe@example.com")
        let reload = await repository.holdNext(.list)
        app.confirm()
        await reload.waitForArrivals() // created; the list's reload is held
        #expect(app.detail.user?.name == "Zoe Quinn")
        #expect(app.list.selectedUser?.name != "Zoe Quinn") // the row selected before, for now

        app.editSelected()
        #expect(topForm?.mode == .edit(try #require(app.detail.user)), "e edits the user the detail pane shows")
        app.close()
        reload.open()
        await app.activity.waitForLoads()
        #expect(app.list.selectedUser?.name == "Zoe Quinn")
    }

    @Test func theStatusMessageGoesAwayAfterAFewSeconds() async {
        app.showStatus("Created Zoe Quinn")
        await clock.advance(by: AppModel.statusMessageDuration - .milliseconds(1))
        #expect(app.statusMessage?.text == "Created Zoe Quinn")
        await clock.advance(by: .milliseconds(1))
        #expect(await eventuallyAfterYields { app.statusMessage == nil })
    }

    @Test func aNewerMessageIsNotClearedByTheOlderOnesTimer() async {
        app.showStatus("one")
        await clock.advance(by: .seconds(2))
        app.showStatus("two", kind: .warning)
        await clock.advance(by: .seconds(1)) // the first message's time is up
        #expect(app.statusMessage?.text == "two")
        await clock.advance(by: .seconds(2))
        #expect(await eventuallyAfterYields { app.statusMessage == nil })
    }

    @Test func editingSavesTheSelectedUser() async throws {
        await started()
        app.moveDown() // Anabel Ruiz
        app.editSelected()
        let form = try #require(topForm)
        #expect(form.mode == .edit(searchDirectory[1]))
        form.setText("Anabel Ruiz Souza", for: .name)
        app.confirm()
        await app.activity.waitForLoads()
        #expect(app.screens == [.list])
        #expect(app.statusMessage?.text == "Saved Anabel Ruiz Souza")
        #expect(app.list.selectedUser?.name == "Anabel Ruiz Souza")
        #expect(app.detail.user?.name == "Anabel Ruiz Souza")
    }

    @Test func editUsesTheDetailPanesFresherCopy() async throws {
        app.start()
        await app.activity.waitForLoads()
        var renamed = searchDirectory[0]
        renamed.email = "ana.silva@example.net"
        await repository.insert(renamed) // changed elsewhere since the list loaded
        await clock.advance(by: UserDetailModel.settleDelay)
        await app.activity.waitForIdle()
        app.editSelected()
        #expect(topForm?.email.text == "ana.silva@example.net")
    }

    @Test func aSaveFailureShowsTheDialogOverTheFormAndRetryResubmits() async throws {
        await started()
        app.newUser()
        let form = try #require(topForm)
        fill(form, name: "Zoe Quinn", email: "zoe@example.com")
        await repository.failNext(.create, with: unavailable)
        app.confirm()
        await app.activity.waitForLoads()
        #expect(app.screens.count == 3)
        #expect(topError?.title == "Could not create the user")
        #expect(app.screens[1] == .form(form))

        app.retry()
        await app.activity.waitForLoads()
        #expect(app.screens == [.list])
        #expect(app.statusMessage?.text == "Created Zoe Quinn")
        #expect(await repository.callCount(.create) == 2)
    }

    @Test func closingTheSaveErrorLeavesTheFormAsTyped() async throws {
        await started()
        app.newUser()
        let form = try #require(topForm)
        fill(form, name: "Zoe Quinn", email: "zoe@example.com")
        await repository.failNext(.create, with: .offline)
        app.confirm()
        await app.activity.waitForLoads()
        app.close()
        #expect(topForm === form)
        #expect(form.name.text == "Zoe Quinn")
        #expect(app.canRetry)
    }

    @Test func fieldErrorsStayOnTheFormWithoutADialog() async throws {
        await started()
        app.newUser()
        let form = try #require(topForm)
        fill(form, name: "Ana Again", email: searchDirectory[0].email)
        app.confirm()
        await app.activity.waitForLoads()
        #expect(topForm === form)
        #expect(form.error(for: .email) == "This email is already taken.")
    }

    @Test func closingAFormWithChangesAsksFirst() async throws {
        await started()
        app.newUser()
        let form = try #require(topForm)
        form.edit(.insert("Z"))
        app.close()
        let question = try #require(topConfirm)
        #expect(question.title == "Discard changes?")
        app.close() // n / Esc: keep editing
        #expect(topForm === form)
        app.close()
        app.confirm() // y: discard
        #expect(app.screens == [.list])
        #expect(await repository.callCount(.create) == 0)
    }

    @Test func closingAnUntouchedFormClosesAtOnce() async {
        await started()
        app.newUser()
        app.close()
        #expect(app.screens == [.list])
    }

    @Test func escWhileSavingWaitsForTheAnswer() async throws {
        await started()
        app.newUser()
        let form = try #require(topForm)
        fill(form, name: "Zoe Quinn", email: "zoe@example.com")
        let gate = await repository.holdNext(.create)
        app.confirm()
        await gate.waitForArrivals()
        app.close()
        #expect(topForm === form)
        gate.open()
        await app.activity.waitForLoads()
        #expect(app.screens == [.list])
    }

    // MARK: Delete

    @Test func deletingAsksThenDeletesAndRefreshes() async throws {
        await started()
        app.deleteSelected()
        let question = try #require(topConfirm)
        #expect(question.isDestructive)
        #expect(question.message.contains("Ana Silva"))
        app.confirm()
        await app.activity.waitForLoads()
        #expect(app.screens == [.list])
        #expect(app.statusMessage?.text == "Deleted Ana Silva")
        #expect(await repository.storedUser(id: "p-1") == nil)
        #expect(app.list.rowCount == 5)
        #expect(app.list.selectedUser?.name == "Anabel Ruiz")
    }

    @Test func aFailedDeleteCanBeRetriedFromTheDialog() async throws {
        await started()
        await repository.failNext(.delete, with: .connectionLost)
        app.deleteSelected()
        app.confirm()
        await app.activity.waitForLoads()
        let question = try #require(topConfirm)
        #expect(question.phase == .failed(.connectionLost))
        #expect(app.canRetry)
        app.retry()
        await app.activity.waitForLoads()
        #expect(app.screens == [.list])
        #expect(await repository.storedUser(id: "p-1") == nil)
    }

    @Test func cancellingADeleteDeletesNothing() async {
        await started()
        app.deleteSelected()
        app.close()
        #expect(app.screens == [.list])
        #expect(app.statusMessage == nil)
        #expect(await repository.callCount(.delete) == 0)
    }

    @Test func editAndDeleteNeedASelectedUser() async {
        let empty = AppModel(directory: InMemoryDirectory(), clock: clock)
        empty.start()
        await empty.activity.waitForLoads()
        empty.editSelected()
        #expect(empty.screens == [.list])
        #expect(empty.statusMessage?.text == "No user selected")
        #expect(empty.statusMessage?.kind == .warning)
        empty.deleteSelected()
        #expect(empty.screens == [.list])
    }

    // MARK: Search, sort, help, quit

    @Test func typingInTheSearchLineNarrowsTheListAfterAPause() async {
        await started()
        app.startSearch()
        #expect(app.line?.purpose == .search)
        for character in "ana" { app.editLine(.insert(String(character))) }
        #expect(app.line?.text == "ana")
        await clock.advance(by: UserListModel.searchDebounce)
        await app.activity.waitForIdle()
        #expect(await repository.listCalls().map(\.search) == [nil, "ana"])
        app.commitLine()
        #expect(app.line?.purpose != .search)
        #expect(app.list.rowCount == 3)
    }

    @Test func enterSearchesAtOnce() async {
        await started()
        app.startSearch()
        app.editLine(.insert("bob"))
        app.confirm()
        #expect(app.line?.purpose != .search)
        await app.activity.waitForLoads()
        #expect(app.list.rowCount == 1)
    }

    @Test func escInTheSearchLineGoesBackToTheSearchBefore() async {
        await started()
        app.startSearch()
        app.editLine(.insert("ana"))
        app.commitLine()
        await app.activity.waitForLoads()
        app.startSearch()
        #expect(app.line?.text == "ana")
        app.editLine(.deleteToStart)
        app.editLine(.insert("bob"))
        app.close()
        #expect(app.line?.purpose != .search)
        #expect(app.list.searchText == "ana")
        await app.activity.waitForIdle()
        #expect(app.list.rowCount == 3)
        #expect(await repository.listCalls().map(\.search) == [nil, "ana"]) // "bob" never sent
    }

    @Test func sortCyclesFromTheList() async {
        await started()
        app.cycleSort()
        #expect(app.list.sort == .nameDescending)
        await app.activity.waitForLoads()
        #expect(app.list.selectedUser?.name == "Juliana Costa")
    }

    @Test func helpOpensOnTopAndKeysForTheListWaitBehindIt() async {
        await started()
        app.showHelp()
        #expect(app.topScreen == .help)
        app.moveDown()
        app.newUser()
        app.deleteSelected()
        app.startSearch()
        app.cycleSort()
        #expect(app.screens == [.list, .help])
        #expect(app.list.selection == 0)
        #expect(app.line?.purpose != .search)
        app.confirm() // Enter closes help too
        #expect(app.screens == [.list])
        app.showHelp()
        app.close()
        #expect(app.screens == [.list])
    }

    @Test func listKeysMoveTheList() async {
        await started()
        app.moveDown()
        app.moveDown()
        app.moveUp()
        #expect(app.list.selection == 1)
        app.moveToBottom()
        #expect(app.list.selection == 5)
        app.moveToTop()
        app.pageDown()
        #expect(app.list.selection == 5)
        app.pageUp()
        #expect(app.list.selection == 0)
        app.select(row: 3)
        #expect(app.list.selection == 3)
        app.scroll(by: 1)
        #expect(app.list.selection == 3)
    }

    @Test func quitAsksTheFrontEndToStop() {
        #expect(!app.isQuitRequested)
        app.quit()
        #expect(app.isQuitRequested)
    }
}

@Suite("AppModel: suspend and reactivate", .timeLimit(.minutes(5)))
@MainActor
struct SuspendTests {
    let clock = ManualClock()
    let repository = InMemoryDirectory(generatedCount: 5)

    func started() async -> AppModel {
        let app = AppModel(directory: repository, clock: clock)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        return app
    }

    @Test func capitalSSuspendsAndAgainReactivates() async throws {
        let app = await started()
        let first = try #require(app.list.selectedUser)
        #expect(first.status != .suspended)
        app.toggleSuspended()
        await app.activity.waitForLoads()
        #expect(await repository.storedUser(id: first.id)?.status == .suspended)
        #expect(app.statusMessage?.text == "Suspended \(first.name)")
        app.toggleSuspended()
        await app.activity.waitForLoads()
        #expect(await repository.storedUser(id: first.id)?.status == .active)
        #expect(app.statusMessage?.text == "Reactivated \(first.name)")
    }

    @Test func aFailedSuspendShowsTheErrorWithRetry() async throws {
        let app = await started()
        let first = try #require(app.list.selectedUser)
        await repository.failNext(.update, with: .serviceUnavailable(retryAfter: nil, nil))
        app.toggleSuspended()
        await app.activity.waitForLoads()
        guard case .error(let dialog) = app.topScreen else {
            Issue.record("expected the error dialog, got \(app.topScreen)")
            return
        }
        #expect(dialog.title == "Could not suspend \(first.name)")
        app.retry()
        await app.activity.waitForLoads()
        #expect(await repository.storedUser(id: first.id)?.status == .suspended)
    }
}

@Suite("AppModel: a save refused because someone changed the user", .timeLimit(.minutes(5)))
@MainActor
struct EditConflictTests {
    let repository = InMemoryDirectory(generatedCount: 5)

    @Test func theDialogSaysWhatChangedAndOneKeyAppliesTheEditsToTheServersVersion() async throws {
        let app = AppModel(directory: repository, clock: ManualClock())
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        let original = try #require(app.list.selectedUser)
        app.editSelected()
        guard case .form(let form) = app.topScreen else {
            Issue.record("expected the form")
            return
        }
        form.focus(on: .name)
        form.setText("Renamed Here", for: .name)
        // Meanwhile someone else changes the status on the server.
        var theirs = original
        theirs.status = original.status == .suspended ? .active : .suspended
        await repository.insert(theirs)
        await repository.failNext(.update, with: .preconditionFailed(nil))
        app.confirm()
        await app.activity.waitForLoads()
        guard case .confirm(let dialog) = app.topScreen else {
            Issue.record("expected the conflict dialog, got \(app.topScreen)")
            return
        }
        #expect(dialog.title == "Someone changed \(original.name)")
        #expect(dialog.message.contains("Status: \(original.status.rawValue) → \(theirs.status.rawValue)"))
        #expect(dialog.confirmLabel == "Apply my edits")
        app.confirm()
        await app.activity.waitForLoads()
        let stored = await repository.storedUser(id: original.id)
        #expect(stored?.name == "Renamed Here", "my edit")
        #expect(stored?.status == theirs.status, "their change, not overwritten")
        guard case .list = app.topScreen else {
            Issue.record("the form closes once saved, got \(app.topScreen)")
            return
        }
    }
}

@Suite("AppModel: what the server cannot do is said", .timeLimit(.minutes(5)))
@MainActor
struct DirectoryTraitsTests {
    let repository = InMemoryDirectory(generatedCount: 30)

    func started() async -> AppModel {
        await repository.setTraits(DirectoryTraits(
            dialect: .scim, canSort: false, hasRoles: false,
            searchLimitation: SCIMSearchMode.startsWith.summary))
        let app = AppModel(directory: repository, clock: ManualClock())
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { app.traits.dialect == .scim })
        return app
    }

    @Test func sortingAServerThatCannotSortSaysSoAndChangesNothing() async {
        let app = await started()
        let calls = await repository.listCalls().count
        app.cycleSort()
        #expect(app.statusMessage?.text == "This server cannot sort: the list is in its own order")
        #expect(app.list.sort == .default)
        #expect(await repository.listCalls().count == calls, "nothing was asked of the server")
    }

    @Test func aSearchSaysWhatSearchMeansOnThisServer() async {
        let app = await started()
        app.startSearch()
        app.editLine(.insert("User 1"))
        app.commitLine()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { app.statusMessage?.text.hasPrefix("This server searches by prefix") == true })
    }
}
