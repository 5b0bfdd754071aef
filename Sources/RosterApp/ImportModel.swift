import Observation
import RosterCSV
import RosterJournal
import RosterKit

/// Importing users from a CSV file: a preview of every row, checked before anything is
/// sent; then the creates through the app's one `WorkRunner` (a few at a time, one 429 hold,
/// Esc after those in flight), with progress; then a report of each row, written next to the
/// file.
///
/// Running the same file again creates nobody twice: each row first looks its email up (a
/// user already there is "already exists, skipped"), and its create carries a key derived from
/// the file and the line, so a create whose answer was lost is answered, when sent again, with
/// the user it made instead of making another (roster-server keeps keys 24 hours).
@MainActor
@Observable
public final class ImportModel {
    public enum Phase: Equatable, Sendable {
        /// Every row checked, nothing sent: Enter starts, Esc closes.
        case preview
        case running
        /// Esc while running: the requests in flight finish, no new one starts.
        case stopping
        case finished
    }

    /// Imports go through the app's one runner; a row's result is its outcome.
    typealias Runner = WorkRunner<ImportRow, ImportOutcome>

    /// Creates in flight at once.
    public static var defaultConcurrency: Int { Runner.defaultConcurrency }

    public let plan: ImportPlan
    public private(set) var phase: Phase = .preview
    /// As the screen shows it: created, already there and failed rows.
    public var progress: WorkProgress { runner.progress }
    /// What became of each row sent or skipped, by line.
    public private(set) var outcomes: [Int: ImportOutcome] = [:]
    /// Where the report was written, once the run ends; or why it could not be.
    public private(set) var reportPath: String?
    public private(set) var reportProblem: String?
    /// The first row on screen, in the preview and the result.
    public private(set) var scrollOffset = 0
    /// Told when the run has ended and the report is written.
    @ObservationIgnored public var onFinish: (@MainActor (ImportModel) -> Void)?

    @ObservationIgnored private let directory: any Directory
    /// Each create is journalled, in the import's own journal run.
    @ObservationIgnored private let recorder: ChangeRecorder
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private let runner: Runner
    @ObservationIgnored private var work: TrackedTask?
    /// Lines whose create is on its way: if Roster quits now, their outcome is not known.
    @ObservationIgnored private var inFlightLines = Set<Int>()

    init(plan: ImportPlan, directory: any Directory, activity: Activity, concurrency: Int = ImportModel.defaultConcurrency,
         recorder: ChangeRecorder = .none) {
        self.recorder = recorder
        self.plan = plan
        self.directory = directory
        self.activity = activity
        runner = Runner(progress: WorkProgress(total: plan.validCount), concurrency: concurrency, activity: activity)
    }

    // MARK: What the view reads

    public var createdCount: Int { outcomes.values.count { if case .created = $0.kind { true } else { false } } }
    public var existingCount: Int { outcomes.values.count { if case .alreadyExists = $0.kind { true } else { false } } }
    public var failedCount: Int { outcomes.values.count { if case .failed = $0.kind { true } else { false } } }
    /// Good rows not sent because the run was stopped.
    public var notSentCount: Int { phase == .finished ? plan.validCount - outcomes.count : 0 }

    /// Every row's outcome for the report: bad rows, what was done, and what was not sent.
    public var report: [ImportOutcome] {
        plan.rows.map { row in
            if let problem = row.problem { return ImportOutcome(line: row.line, email: row.email, kind: .invalid(reason: problem)) }
            if let outcome = outcomes[row.line] { return outcome }
            return ImportOutcome(line: row.line, email: row.email, kind: inFlightLines.contains(row.line) ? .unanswered : .notSent)
        }
    }

    public var isRunning: Bool { phase == .running || phase == .stopping }

    // MARK: Scrolling the rows

    /// How many rows the view shows: set by the view as it draws (not observed: it is the
    /// view's own measure, and setting it must not ask for another frame).
    @ObservationIgnored public var visibleRowCount = 10

    public func scroll(by rows: Int) {
        let limit = max(0, plan.rows.count - max(1, visibleRowCount))
        let offset = min(max(0, scrollOffset + rows), limit)
        if offset != scrollOffset { scrollOffset = offset }
    }

    // MARK: Running

    /// Enter on the preview: sends the good rows.
    public func start() {
        guard phase == .preview else { return }
        guard plan.validCount > 0 else { return }
        phase = .running
        work = activity.startLoad { [weak self] in
            await self?.run()
        }
    }

    private func run() async {
        let directory = self.directory
        let plan = self.plan
        let recorder = self.recorder
        let name = plan.path.split(separator: "/").last.map(String.init) ?? plan.path
        let runID = await runner.openJournalRun(recorder, what: "Importing \(name)", count: plan.validCount, plan: nil, undoes: nil)
        await runner.run(plan.validRows, perform: { row in
            guard let draft = row.draft else {
                return (.failed(ImportOutcome(line: row.line, email: row.email, kind: .invalid(reason: row.problem ?? ""))), 0)
            }
            return await Self.send(row, draft: draft, key: plan.idempotencyKey(for: row), to: directory, recorder: recorder, runID: runID)
        }, giveUp: { row, error in
            ImportOutcome(line: row.line, email: row.email, kind: .failed(reason: error.reason))
        }, willSend: { [weak self] row in
            self?.inFlightLines.insert(row.line)
        }, record: { [weak self] row, step in
            guard let self else { return }
            inFlightLines.remove(row.line)
            switch step {
            case .changed(let outcome), .unchanged(let outcome), .failed(let outcome): outcomes[row.line] = outcome
            case .rateLimited, .cancelled: break
            }
        })
        finish()
    }

    /// Esc while running: no new request starts; those in flight finish and are reported.
    public func stop() {
        guard phase == .running else { return }
        phase = .stopping
        runner.stop()
    }

    /// A key: no new create starts for a moment (`WorkRunner.keysPressed`).
    public func keysPressed() {
        if phase == .running { runner.keysPressed() }
    }

    private func finish() {
        guard phase != .finished else { return }
        phase = .finished
        work = nil
        writeReport()
        onFinish?(self)
    }

    /// Roster is going away mid-run (a signal, or Ctrl-C twice): the report is written now,
    /// with the rows in flight as sent but unanswered, so what was done is not lost.
    public func writeReportBeforeExit() {
        guard isRunning else { return }
        phase = .finished
        work?.cancel()
        work = nil
        writeReport()
    }

    private func writeReport() {
        do {
            reportPath = try ImportReport.write(report, nextTo: plan.path)
        } catch {
            reportProblem = error.description
        }
    }

    /// One row: looked up by email first (there already: skipped), else created with the
    /// row's own key. A 409 means someone made the email meanwhile: skipped too. A 429 goes
    /// back to the runner, which holds every create for the wait and sends this one again.
    nonisolated static func send(_ row: ImportRow, draft: UserDraft, key: String, to directory: any Directory,
                                 recorder: ChangeRecorder = .none, runID: String? = nil) async -> (step: Runner.Step, requests: Int) {
        func outcome(_ kind: ImportOutcome.Kind) -> ImportOutcome { ImportOutcome(line: row.line, email: row.email, kind: kind) }
        var requests = 1
        do {
            if let existing = try await existingUser(email: draft.email, in: directory) {
                return (.unchanged(outcome(.alreadyExists(id: existing.id))), requests)
            }
            requests += 1
            let user = try await recorder.record(.create(draft), run: runID, landed: { (.user($0), $0.id) }) {
                try await directory.createUser(draft, idempotencyKey: key)
            }
            return (.changed(outcome(.created(id: user.id))), requests)
        } catch let error as APIError {
            switch error {
            case .rateLimited(let wait, _):
                return (.rateLimited(wait, error), requests)
            case .conflict:
                requests += 1
                let existing = try? await existingUser(email: draft.email, in: directory)
                if existing != nil || error.fieldErrors.contains(where: { $0.field == "email" }) {
                    return (.unchanged(outcome(.alreadyExists(id: existing?.id))), requests)
                }
                return (.failed(outcome(.failed(reason: error.reason))), requests)
            case .createOutcomeUnknown(let existing?):
                // The answer was lost, and the lookup found the user: it was made.
                return (.changed(outcome(.created(id: existing.id))), requests)
            default:
                return (.failed(outcome(.failed(reason: error.reason))), requests)
            }
        } catch {
            guard APIError.shown(for: error) != nil else { return (.cancelled, requests) }
            return (.failed(outcome(.failed(reason: String(describing: error)))), requests)
        }
    }

    /// The user with exactly this email (in any case), if there is one.
    nonisolated static func existingUser(email: String, in directory: any Directory) async throws -> User? {
        let page = try await directory.listUsers(UserQuery(perPage: 20, search: email))
        return page.items.first { $0.email.lowercased() == email.lowercased() }
    }
}

private extension APIError {
    /// The sentence for the report, with the field errors a 422 names.
    var reason: String {
        let fields = fieldErrors.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
        let sentence = errorDescription ?? "It failed."
        return fields.isEmpty ? sentence : "\(sentence) \(fields)"
    }
}
