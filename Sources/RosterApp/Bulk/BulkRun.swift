import Observation
import RosterJournal
import RosterKit

/// One bulk action over many users: first, for "all matching", reading who they are page by
/// page; then the requests through the app's one `WorkRunner` (a few at a time, one 429 hold,
/// Esc after those in flight), with progress; at the end, a summary whose failures can be
/// tried again.
///
/// No write is sent twice by accident: each user gets one request (an update reads the user
/// first, unless the run just read them), and only a 429, which the server did not process,
/// sends it again.
@MainActor
@Observable
public final class BulkRun {
    public enum Phase: Sendable, Equatable {
        /// Reading the users "all matching" stands for, page by page.
        case finding
        case running
        /// Esc was pressed: the requests in flight finish, no new ones start.
        case stopping
        case finished
    }

    /// Bulk runs go through the app's one runner; a user's result is why it failed, if it did.
    typealias Runner = WorkRunner<BulkTarget, APIError?>

    /// Requests at once.
    public nonisolated static var concurrency: Int { Runner.defaultConcurrency }
    /// How often the progress line moves at most.
    public nonisolated static var progressInterval: Duration { Runner.progressInterval }

    public let action: BulkAction
    public private(set) var phase: Phase
    /// As the screen shows it: updated at most every `WorkRunner.progressInterval`, and at the end.
    public var progress: WorkProgress { runner.progress }
    /// Each user that failed, and why (published with `progress`).
    public private(set) var failures: [BulkFailure] = []
    /// Users nothing was sent to because the run was stopped.
    public private(set) var notStarted = 0
    /// Finding "all matching" failed: nothing was changed.
    public private(set) var findError: APIError?
    public private(set) var wasStopped = false

    /// Told once, when the run is over (finished, stopped or failed to find its users).
    @ObservationIgnored var onFinish: (@MainActor (BulkRun) -> Void)?
    /// Requests in flight now (at most `concurrency`).
    public var inFlight: Int { runner.inFlight }

    @ObservationIgnored let scope: BulkScope
    @ObservationIgnored private let directory: any Directory
    /// Each user's write is journalled here, in the run's own journal run.
    @ObservationIgnored private let recorder: ChangeRecorder
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private let runner: Runner
    @ObservationIgnored private var liveFailures: [BulkFailure] = []
    @ObservationIgnored private var work: TrackedTask?

    init(action: BulkAction, scope: BulkScope, total: Int, directory: any Directory, activity: Activity,
         concurrency: Int = BulkRun.concurrency, recorder: ChangeRecorder = .none) {
        self.action = action
        self.scope = scope
        self.directory = directory
        self.recorder = recorder
        self.activity = activity
        runner = WorkRunner(progress: WorkProgress(total: total), concurrency: concurrency, activity: activity)
        switch scope {
        case .allMatching, .ids: phase = .finding
        case .users: phase = .running
        }
        runner.onPublish = { [weak self] in
            guard let self, failures.count != liveFailures.count else { return }
            failures = liveFailures
        }
    }

    public var isActive: Bool { phase != .finished }

    /// The users the run was asked for, as a label: "1,000 users".
    public var usersLabel: String {
        let total = progress.total
        return total == 1 ? "1 user" : "\(CountFormat.grouped(total)) users"
    }

    /// Starts the run (once). It is tracked by `activity`, so tests can wait for it.
    func start() {
        guard work == nil else { return }
        work = activity.startWork { [weak self] in await self?.execute() }
    }

    /// Esc: no new requests; the ones in flight finish and are counted.
    public func stop() {
        guard isActive, !runner.isStopping else { return }
        runner.stop()
        phase = .stopping
    }

    /// A key (or a click): no new request starts for a moment (`WorkRunner.keysPressed`).
    public func keysPressed() {
        guard phase == .running || phase == .finding else { return }
        runner.keysPressed()
    }

    /// A frame is about to be drawn for a key: it shows the counts as they are, and the
    /// progress line's own next frame waits a whole interval from here. While keys come, the
    /// progress rides along in their frames instead of drawing frames of its own between
    /// them (each one more write to a terminal over SSH, and a key's answer held up).
    public func publishForFrame() {
        guard isActive else { return }
        runner.publish(now: true)
    }

    /// One line for the log: what was done to whom, how many requests, how long.
    public var logLine: String {
        let seconds = progress.elapsed.seconds
        let milliseconds = Int((seconds * 1000).rounded())
        var line = "bulk run \(findError == nil ? (wasStopped ? "stopped" : "finished") : "failed to find its users"): "
            + "\(action.progressive.lowercased()), \(progress.done) of \(progress.total) users "
            + "(\(progress.succeeded) changed, \(progress.unchanged) \(action.alreadyLabel), \(progress.failed) failed, \(notStarted) not started), "
            + "\(progress.requests) requests in \(milliseconds / 1000).\(String(milliseconds % 1000 + 1000).dropFirst()) s"
        if let findError { line += "; \(findError)" }
        for failure in failures.prefix(20) { line += "; \(failure.user.id): \(failure.reason)" }
        return line
    }

    /// The users that failed, to run again.
    var failedTargets: [BulkTarget] {
        failures.map { BulkTarget(user: $0.user, isFresh: false) }
    }

    // MARK: The run

    private func execute() async {
        let targets: [BulkTarget]
        switch scope {
        case .users(let users):
            targets = users
        case .ids(let ids):
            targets = await read(ids)
        case .allMatching(let query, let except):
            do {
                targets = try await find(query, except: except)
            } catch {
                findError = APIError.shown(for: error) ?? .transportFailed("cancelled")
                finish()
                return
            }
        }
        if !runner.isStopping { phase = .running }
        let action = self.action
        let directory = self.directory
        let recorder = self.recorder
        let runID = await runner.openJournalRun(
            recorder, what: action.progressive, count: targets.count,
            plan: action.journalName.map { JournalPlan(action: $0, userIDs: targets.map(\.id)) }, undoes: nil)
        await runner.run(targets, perform: { target in
            await Self.perform(action, on: target, directory: directory, recorder: recorder, runID: runID)
        }, giveUp: { _, error in error }, record: { [weak self] target, step in
            if case .failed(let error?) = step { self?.liveFailures.append(BulkFailure(user: target.user, error: error)) }
        })
        finish()
    }

    /// Every user of `query` but `except` (`EveryPage`, the largest pages). All are read
    /// before any is changed: changing them could move the rest between pages.
    private func find(_ query: Marks.Query, except: Set<String>) async throws -> [BulkTarget] {
        var found: [BulkTarget] = []
        var seen = Set<String>()
        try await EveryPage(directory: directory, of: query).read { page in
            guard !runner.isStopping else { return false }
            runner.live.requests += 1
            for user in page.items where !except.contains(user.id) && seen.insert(user.id).inserted {
                found.append(BulkTarget(user: user, isFresh: true))
            }
            runner.live.found = found.count
            runner.live.total = max(found.count, page.total - except.count)
            runner.publish()
            return true
        }
        return found
    }

    /// Each user by id, as the server has them now; one that is gone is left out (nothing
    /// to do), one that cannot be read fails as its write would.
    private func read(_ ids: [String]) async -> [BulkTarget] {
        var found: [BulkTarget] = []
        for id in ids where !runner.isStopping {
            runner.live.requests += 1
            do {
                found.append(BulkTarget(user: try await directory.user(id: id), isFresh: true))
            } catch APIError.notFound {
                continue
            } catch {
                let placeholder = User(id: id, name: id, email: "", role: .member, status: .active, createdAt: .distantPast, updatedAt: .distantPast)
                liveFailures.append(BulkFailure(user: placeholder, error: APIError.shown(for: error) ?? .transportFailed("cancelled")))
            }
            runner.live.found = found.count
        }
        return found
    }

    private func finish() {
        wasStopped = runner.isStopping
        notStarted = runner.notStarted
        runner.publish(now: true)
        phase = .finished
        onFinish?(self)
    }

    // MARK: One user

    typealias Outcome = Runner.Step

    /// Applies `action` to one user, off the main actor; returns what happened and how many
    /// requests it took.
    nonisolated static func perform(
        _ action: BulkAction, on target: BulkTarget, directory: any Directory, recorder: ChangeRecorder = .none, runID: String? = nil
    ) async -> (Outcome, Int) {
        var requests = 0
        do {
            switch action {
            case .suspend, .reactivate, .setRole:
                // The whole user is written back: start from the server's copy, so a field
                // someone changed since the list was read is not put back.
                var user = target.user
                if !target.isFresh {
                    requests += 1
                    user = try await directory.user(id: target.id)
                }
                guard let draft = action.applied(to: user) else { return (.unchanged(nil), requests) }
                requests += 1
                _ = try await recorder.record(.update(user, to: draft), run: runID) {
                    try await directory.updateUser(id: target.id, with: draft)
                }
            case .delete:
                requests += 1
                do {
                    try await recorder.record(.delete(target.user), run: runID) {
                        try await directory.deleteUser(id: target.id)
                    }
                } catch APIError.notFound {
                    return (.unchanged(nil), requests) // gone already: what was asked
                }
            case .addToGroup(let group), .removeFromGroup(let group):
                let isMember = target.user.groups.contains { $0.id == group.id }
                if case .addToGroup = action {
                    if target.isFresh, isMember { return (.unchanged(nil), requests) }
                    requests += 1
                    try await recorder.record(.membership(target.user, group, adding: true), run: runID) {
                        try await directory.addMember(target.id, to: group.id)
                    }
                } else {
                    if target.isFresh, !isMember { return (.unchanged(nil), requests) }
                    requests += 1
                    try await recorder.record(.membership(target.user, group, adding: false), run: runID) {
                        try await directory.removeMember(target.id, from: group.id)
                    }
                }
            case .resetPassword(let reset):
                requests += 1
                try await recorder.record(.resetPassword(target.user), run: runID) {
                    try await directory.resetPassword(id: target.id, to: reset.password, mustChange: reset.mustChange)
                }
            case .unlock:
                requests += 1
                let unlocked = try await recorder.record(.unlock(target.user), run: runID) { try await directory.unlock(id: target.id) }
                guard unlocked else { return (.unchanged(nil), requests) }
            }
            return (.changed(nil), requests)
        } catch let error as APIError {
            if case .rateLimited(let wait, _) = error { return (.rateLimited(wait, error), requests) }
            return (.failed(error), requests)
        } catch {
            guard let shown = APIError.shown(for: error) else { return (.cancelled, requests) }
            return (.failed(shown), requests)
        }
    }
}
