import Observation
import RosterJournal
import RosterKit

/// Undoing a change or a whole run: a run like any other, through the app's one `WorkRunner`
/// (progress, Esc, retry of failures), journalled as a run of its own that `undoes` the one
/// it takes back, so it can be undone in turn. Entries are undone newest first; those of one
/// object (a user made again and put back in groups) go in one item, in that order, so two
/// workers never undo one object's writes out of order.
@MainActor
@Observable
public final class UndoRun {
    public enum Phase: Sendable, Equatable {
        case running
        case stopping
        case finished
    }

    struct Item: Sendable {
        /// One object's entries, newest first.
        var entries: [JournalEntry]
        /// Set back even though someone changed it since (the person chose to).
        var force: Bool
    }

    typealias Runner = WorkRunner<Item, [UndoOutcome]>

    /// "Undo: Suspending", as the progress line and the journal say it.
    public let what: String
    public private(set) var phase = Phase.running
    public var progress: WorkProgress { runner.progress }
    /// Every entry's outcome, in the order they ended (published with `progress`).
    public private(set) var outcomes: [UndoOutcome] = []
    /// Entries left out because they cannot be undone (a password reset, a write that failed).
    public let notUndoable: [UndoOutcome]
    public private(set) var wasStopped = false
    /// The journal run this undo was written as (nil without a journal).
    public private(set) var journalRunID: String?

    @ObservationIgnored var onFinish: (@MainActor (UndoRun) -> Void)?
    @ObservationIgnored let items: [Item]
    @ObservationIgnored let undoesRun: String?
    @ObservationIgnored private let directory: any Directory
    @ObservationIgnored private let recorder: ChangeRecorder
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private let runner: Runner
    @ObservationIgnored private var liveOutcomes: [UndoOutcome] = []
    @ObservationIgnored private var work: TrackedTask?

    init(what: String, entries: [JournalEntry], force: Bool = false, undoesRun: String?, directory: any Directory,
         recorder: ChangeRecorder, activity: Activity, concurrency: Int = WorkRunner<Item, [UndoOutcome]>.defaultConcurrency) {
        self.what = what
        let newestFirst = entries.sorted { $0.id > $1.id }
        var byObject: [String: Int] = [:]
        var items: [Item] = []
        for entry in newestFirst where entry.isUndoable {
            if let index = byObject[entry.objectID] {
                items[index].entries.append(entry)
            } else {
                byObject[entry.objectID] = items.count
                items.append(Item(entries: [entry], force: force))
            }
        }
        self.items = items
        notUndoable = newestFirst.filter { !$0.isUndoable }.map {
            UndoOutcome(entry: $0, kind: .notUndoable($0.state == .failed ? "it did not land" : "\($0.change)"))
        }
        self.undoesRun = undoesRun
        self.directory = directory
        self.recorder = recorder
        self.activity = activity
        runner = Runner(progress: WorkProgress(total: items.count), concurrency: concurrency, activity: activity)
        runner.onPublish = { [weak self] in
            guard let self, outcomes.count != liveOutcomes.count else { return }
            outcomes = liveOutcomes
        }
    }

    public var isActive: Bool { phase != .finished }
    public var conflicts: [UndoOutcome] { outcomes.filter(\.isConflict) }
    public var failures: [UndoOutcome] {
        outcomes.filter { if case .failed = $0.kind { true } else { false } }
    }
    public var restored: [UndoOutcome] {
        outcomes.filter { if case .restored = $0.kind { true } else { false } }
    }

    func start() {
        guard work == nil else { return }
        work = activity.startWork { [weak self] in await self?.execute() }
    }

    /// Esc: no new requests; those in flight finish.
    public func stop() {
        guard isActive, !runner.isStopping else { return }
        runner.stop()
        phase = .stopping
    }

    public func keysPressed() {
        guard phase == .running else { return }
        runner.keysPressed()
    }

    private func execute() async {
        let directory = self.directory
        let recorder = self.recorder
        journalRunID = await runner.openJournalRun(recorder, what: what, count: items.count, plan: nil, undoes: undoesRun)
        let runID = journalRunID
        await runner.run(items, perform: { item in
            var outcomes: [UndoOutcome] = []
            var requests = 0
            for entry in item.entries {
                let (kind, sent) = await UndoStep.perform(entry, force: item.force, directory: directory, recorder: recorder, runID: runID)
                requests += sent
                // A 429 before anything of this object changed: the whole item again, later.
                if case .failed(let error) = kind, case .rateLimited(let wait, _) = error, outcomes.isEmpty {
                    return (.rateLimited(wait, error), requests)
                }
                outcomes.append(UndoOutcome(entry: entry, kind: kind))
            }
            if outcomes.contains(where: { if case .failed = $0.kind { true } else { $0.isConflict } }) { return (.failed(outcomes), requests) }
            if outcomes.contains(where: { if case .restored = $0.kind { true } else { false } }) { return (.changed(outcomes), requests) }
            return (.unchanged(outcomes), requests)
        }, giveUp: { item, error in
            item.entries.map { UndoOutcome(entry: $0, kind: .failed(error)) }
        }, record: { [weak self] _, step in
            switch step {
            case .changed(let outcomes), .unchanged(let outcomes), .failed(let outcomes): self?.liveOutcomes += outcomes
            case .rateLimited, .cancelled: break
            }
        })
        try? await recorder.journal?.flush()
        wasStopped = runner.isStopping
        runner.publish(now: true)
        outcomes = liveOutcomes
        phase = .finished
        onFinish?(self)
    }

    /// "Undid 200 changes; 1 conflict left alone" for the status line and the summary.
    public var summary: String {
        var parts = ["Set back \(count(restored.count, "change"))"]
        let already = outcomes.filter { $0.kind == .alreadyAsBefore }.count
        if already > 0 { parts.append("\(already) already as before") }
        if !conflicts.isEmpty { parts.append("\(count(conflicts.count, "conflict")) left alone") }
        if !failures.isEmpty { parts.append("\(failures.count) failed") }
        if !notUndoable.isEmpty { parts.append("\(notUndoable.count) cannot be undone") }
        if wasStopped { parts.append("stopped: \(runner.notStarted) not started") }
        return parts.joined(separator: "; ")
    }

    private func count(_ n: Int, _ noun: String) -> String {
        n == 1 ? "1 \(noun)" : "\(CountFormat.grouped(n)) \(noun)s"
    }
}
