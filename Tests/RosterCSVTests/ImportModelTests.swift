import Foundation
import RosterCSV
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Import: preview, creates a few at a time, the report next to the file, and re-runs.
@MainActor
@Suite("Import model")
struct ImportModelTests {
    let folder: TemporaryFolder
    init() { folder = TemporaryFolder() }

    /// `i`, the file's path, Enter: the preview, through the app as a person gets there.
    func preview(_ path: String, app: AppModel) async throws -> ImportModel {
        app.startImport()
        app.editLine(.deleteToStart)
        app.editLine(.insert(path))
        app.commitLine()
        guard case .importer(let model) = app.topScreen else {
            throw PreviewError(problem: app.line?.problem ?? "no preview")
        }
        await app.activity.waitForLoads() // the comparison with the directory
        return model
    }

    struct PreviewError: Error { var problem: String }

    @Test func thePreviewCountsAndNamesBadRowsAndNothingIsSent() async throws {
        let repository = InMemoryDirectory()
        let app = AppModel(directory: repository)
        let path = try folder.write("users.csv", hiresCSV(count: 10, badLines: [4: "Bad,not-an-email,,", 9: "Twin,hire001@example.com,,"]))
        let model = try await preview(path, app: app)
        #expect(model.phase == .preview)
        #expect(model.plan.validCount == 8 && model.plan.badCount == 2)
        #expect(model.plan.badRows.map(\.line) == [4, 9])
        #expect(model.plan.badRows[1].problem == "duplicate email: also on line 2")
        let writes = await repository.callCount(.create) + repository.callCount(.update)
        #expect(writes == 0, "the preview sends nothing")
        model.visibleRowCount = 3
        model.scroll(by: 5)
        #expect(model.scrollOffset == 5)
        model.scroll(by: 100)
        #expect(model.scrollOffset == 7, "the last rows fill the view")
    }

    @Test func aFileThatCannotBeReadKeepsThePromptOpenWithTheReason() async throws {
        let app = AppModel(directory: InMemoryDirectory())
        let path = try folder.write("people.csv", "name,email\n\"Ana,ana@example.com\n")
        await #expect(throws: PreviewError.self) { try await preview(path, app: app) }
        #expect(app.line?.problem?.contains("never closed") == true, "\(app.line?.problem ?? "")")
        #expect(app.topScreen == .list)
    }

    @Test func aFileWithoutAnEmailColumnOpensThePreviewAskingForTheMapping() async throws {
        let repository = InMemoryDirectory()
        let app = AppModel(directory: repository)
        let path = try folder.write("people.csv", "first,last,Work address\nAna,Silva,ana@example.com\n")
        let model = try await preview(path, app: app)
        #expect(model.comparison == .waitingForMapping)
        #expect(model.plan.rows.first?.problem?.contains("no column is the email") == true)
        app.confirm()
        #expect(model.phase == .preview, "nothing to send until it is mapped")
    }

    @Test func createsTheGoodRowsReportsAPartialFailureAndWritesTheReportBesideTheFile() async throws {
        let repository = InMemoryDirectory()
        await repository.failNext(.create, with: .validationFailed(ErrorBody(
            code: "validation_failed", message: "Some fields are not valid.",
            fields: [FieldError(field: "name", message: "Name is taken by policy.")])))
        let app = AppModel(directory: repository)
        let path = try folder.write("users.csv", hiresCSV(count: 6, badLines: [3: "Bad,bad@,,"]))
        let model = try await preview(path, app: app)
        app.confirm() // Enter
        await app.activity.waitForLoads()

        #expect(model.phase == .finished)
        #expect(model.createdCount == 4 && model.failedCount == 1 && model.existingCount == 0)
        #expect(await repository.count == 4)
        let report = try #require(try folder.report(for: path))
        let lines = report.split(separator: "\r\n").map(String.init)
        #expect(lines.first == "line,email,outcome,detail")
        #expect(lines.count == 7, "one line per row: \(report)")
        #expect(lines[2].hasPrefix("3,bad@,\"invalid, not sent\",invalid email"))
        #expect(lines.filter { $0.contains(",created,user-") }.count == 4)
        let failed = try #require(lines.first { $0.contains(",failed,") })
        #expect(failed.contains("Name is taken by policy."), "the reason is the server's: \(failed)")
        #expect(model.reportPath == folder.url.appendingPathComponent(folder.names.first { $0.contains("import-report") }!).path)
    }

    @Test func atMostFourCreatesAreInFlightAndEscStopsAfterThem() async throws {
        let repository = InMemoryDirectory()
        var gates: [CallGate] = []
        for _ in 0..<4 { gates.append(await repository.holdNext(.create)) }
        let app = AppModel(directory: repository)
        let path = try folder.write("users.csv", hiresCSV(count: 10))
        let model = try await preview(path, app: app)
        app.confirm()
        for gate in gates { await gate.waitForArrivals() }
        #expect(await repository.callCount(.create) == 4, "four at a time")

        app.close() // Esc
        #expect(model.phase == .stopping)
        for gate in gates { gate.open() }
        await app.activity.waitForLoads()

        #expect(model.phase == .finished)
        #expect(model.createdCount == 4 && model.notSentCount == 6)
        #expect(await repository.callCount(.create) == 4, "nothing new after Esc")
        let report = try #require(try folder.report(for: path))
        #expect(report.components(separatedBy: "not sent (stopped)").count - 1 == 6)
    }

    @Test func ctrlCDuringAnImportAsksAndYesQuitsOnceTheReportIsWritten() async throws {
        let repository = InMemoryDirectory()
        var gates: [CallGate] = []
        for _ in 0..<4 { gates.append(await repository.holdNext(.create)) }
        let app = AppModel(directory: repository)
        let path = try folder.write("users.csv", hiresCSV(count: 10))
        let model = try await preview(path, app: app)
        app.confirm()
        for gate in gates { await gate.waitForArrivals() }

        app.requestQuit() // Ctrl-C
        guard case .confirm(let question) = app.topScreen else { Issue.record("no question: \(app.topScreen)"); return }
        #expect(question.title == "Quit during an import?")
        #expect(question.message.hasPrefix("0 of 10 rows sent."))
        app.confirm()
        #expect(!app.isQuitRequested, "it waits for the creates in flight")
        #expect(model.phase == .stopping)
        for gate in gates { gate.open() }
        await app.activity.waitForLoads()

        #expect(app.isQuitRequested)
        #expect(model.createdCount == 4 && model.notSentCount == 6)
        let report = try #require(try folder.report(for: path))
        #expect(report.components(separatedBy: ",created,").count - 1 == 4)
        #expect(report.components(separatedBy: "not sent (stopped)").count - 1 == 6)
    }

    @Test func quittingAtOnceMidImportStillWritesTheReportWithTheRowsInFlightUnanswered() async throws {
        let repository = InMemoryDirectory()
        let first = await repository.holdNext(.create)
        let app = AppModel(directory: repository)
        let path = try folder.write("users.csv", hiresCSV(count: 3))
        let model = try await preview(path, app: app)
        app.confirm()
        await first.waitForArrivals()
        // The other two rows are answered; the held one is still on its way.
        #expect(await eventually(within: .seconds(2)) { model.createdCount == 2 })
        #expect(app.runningImport === model)

        model.writeReportBeforeExit() // what the front end does when a signal ends Roster
        #expect(model.phase == .finished)
        let report = try #require(try folder.report(for: path))
        let lines = report.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 4, "\(report)")
        #expect(lines.filter { $0.contains(",created,user-") }.count == 2)
        #expect(lines.filter { $0.contains("\"sent, no answer (quit)\",run again: it is created at most once") }.count == 1, "\(report)")
        first.open()
        await app.activity.waitForLoads()
        #expect(folder.names.filter { $0.contains("import-report") }.count == 1, "written once")
    }

    @Test func runningTheSameFileAgainCreatesNobodyTwice() async throws {
        let repository = InMemoryDirectory()
        let app = AppModel(directory: repository)
        let path = try folder.write("users.csv", hiresCSV(count: 8))

        // The first run is stopped after four.
        var gates: [CallGate] = []
        for _ in 0..<4 { gates.append(await repository.holdNext(.create)) }
        let first = try await preview(path, app: app)
        app.confirm()
        for gate in gates { await gate.waitForArrivals() }
        app.close()
        for gate in gates { gate.open() }
        await app.activity.waitForLoads()
        #expect(first.createdCount == 4 && first.notSentCount == 4)
        let firstKeys = await repository.idempotencyKeys
        app.close()

        // Again: the four made are unchanged (not sent), the other four made.
        let second = try await preview(path, app: app)
        #expect(second.unchangedCount == 4 && second.newCount == 4)
        app.confirm()
        await app.activity.waitForLoads()
        #expect(second.createdCount == 4 && second.failedCount == 0)
        #expect(await repository.count == 8)
        app.close()

        // And once more: nobody new, nothing to send.
        let creates = await repository.callCount(.create)
        let third = try await preview(path, app: app)
        #expect(third.unchangedCount == 8 && third.toSendCount == 0)
        app.confirm()
        await app.activity.waitForLoads()
        #expect(third.phase == .preview && third.createdCount == 0)
        #expect(await repository.count == 8)
        #expect(await repository.callCount(.create) == creates)

        // Each row's key is the same in every run: a lost answer is replayed, not repeated.
        let keys = await repository.idempotencyKeys
        #expect(Set(keys).count == 8, "one key per row")
        #expect(firstKeys.allSatisfy { sent in keys.filter { $0 == sent }.count == 1 })
        #expect(Set(keys) == Set(first.plan.validRows.map(first.plan.idempotencyKey(for:))))
    }

    @Test func anEmailSomeoneTookMeanwhileIsAlreadyExistsNotAFailure() async throws {
        let repository = InMemoryDirectory()
        // The lookup finds nobody; the email is taken before the create lands (a 409).
        let gate = await repository.holdNext(.create)
        let app = AppModel(directory: repository)
        let path = try folder.write("users.csv", hiresCSV(count: 1))
        let model = try await preview(path, app: app)
        app.confirm()
        await gate.waitForArrivals()
        await repository.insert(User.fixture(id: "other", name: "Someone", email: "hire001@example.com"))
        gate.open()
        await app.activity.waitForLoads()
        #expect(model.existingCount == 1 && model.failedCount == 0)
        #expect(model.outcomes[2]?.kind == .alreadyExists(id: "other"))
    }

    @Test func progressCountsRateAndTimeLeftFromTheInjectedClock() {
        var progress = WorkProgress(total: 100)
        #expect(progress.rate == nil && progress.timeLeft == nil)
        progress.succeeded = 20
        progress.unchanged = 5
        progress.elapsed = .seconds(5)
        #expect(progress.rate == 5)
        #expect(progress.timeLeft == .seconds(15))
        #expect(progress.fraction == 0.25)
        #expect(progress.summary == "25 / 100 · 5.0/s · 15 s left")
        progress.succeeded = 95
        progress.elapsed = .seconds(10)
        #expect(progress.summary == "100 / 100 · 10/s")
        var export = WorkProgress(total: 0, isTotalKnown: false)
        export.succeeded = 400
        export.elapsed = .seconds(2)
        #expect(export.fraction == nil && export.timeLeft == nil)
        #expect(export.summary == "400 · 200/s")
    }

    @Test func theStopwatchReadsTheInjectedClock() async {
        let clock = ManualClock()
        let stopwatch = Stopwatch(clock: clock)
        await clock.advance(by: .seconds(3))
        #expect(stopwatch.elapsed() == .seconds(3))
    }
}
