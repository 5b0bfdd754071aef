import Observation
import RosterKit

/// One bulk action over many users: first, for "all matching", reading who they are page by
/// page; then the requests, `concurrency` at a time, with progress; Esc stops after the
/// requests in flight; at the end, a summary whose failures can be tried again.
///
/// No write is sent twice by accident: each user gets one request (an update reads the user
/// first, unless the run just read them), and only a 429, which the server did not process,
/// sends it again, after the server's `Retry-After`, with every other worker waiting too.
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

    /// Requests at once: a few, so a run is quick without crowding out the list's own pages.
    public nonisolated static let concurrency = 4
    /// Requests at once for this run (`AppModel.bulkConcurrency`).
    @ObservationIgnored let concurrency: Int
    /// The progress the screen shows moves at most this often (a run can do hundreds of
    /// users a second; the terminal needs ten frames).
    public nonisolated static let progressInterval: Duration = .milliseconds(100)
    /// Users per page while finding "all matching": the most the contract allows.
    public nonisolated static let findPageSize = UserQuery.perPageRange.upperBound
    /// How often one user may be turned away with 429 before that counts as its failure.
    public nonisolated static let maximumRateLimitRetries = 5
    /// The wait after a 429 that did not say how long.
    public nonisolated static let defaultRateLimitWait: Duration = .seconds(1)
    /// Keys outrank the run: after each key, no new request starts for this long (see
    /// `keysPressed()`). Longer than the gap between a key's frame and the next key of a fast
    /// typist; shorter than anyone notices a run stalling.
    public nonisolated static let keyGrace: Duration = .milliseconds(30)

    public let action: BulkAction
    public private(set) var phase: Phase
    /// As the screen shows it: updated at most every `progressInterval`, and at the end.
    public private(set) var progress: BulkProgress
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
    @ObservationIgnored public private(set) var inFlight = 0

    @ObservationIgnored let scope: BulkScope
    @ObservationIgnored private let directory: any Directory
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private var live: BulkProgress
    @ObservationIgnored private var liveFailures: [BulkFailure] = []
    @ObservationIgnored private var queue: [BulkTarget] = []
    @ObservationIgnored private var nextIndex = 0
    /// Users a 429 turned away: sent again first, once the wait is over.
    @ObservationIgnored private var requeued: [BulkTarget] = []
    @ObservationIgnored private var rateLimitCounts: [String: Int] = [:]
    @ObservationIgnored private var stopping = false
    @ObservationIgnored private var stopwatch: Stopwatch
    @ObservationIgnored private var sendingStarted: Duration = .zero
    @ObservationIgnored private var lastPublished: Duration?
    @ObservationIgnored private var publishTimer: TrackedTask?
    @ObservationIgnored private var pausedUntil: Duration?
    @ObservationIgnored private var pauseTimer: MovableTimer
    @ObservationIgnored private var pauseWaiters: [CheckedContinuation<Void, Never>] = []
    @ObservationIgnored private var work: TrackedTask?

    init(action: BulkAction, scope: BulkScope, total: Int, directory: any Directory, activity: Activity,
         concurrency: Int = BulkRun.concurrency) {
        self.action = action
        self.concurrency = max(1, concurrency)
        self.scope = scope
        self.directory = directory
        self.activity = activity
        let progress = BulkProgress(total: total)
        self.progress = progress
        self.live = progress
        self.stopwatch = Stopwatch(clock: activity.clock)
        self.pauseTimer = MovableTimer(activity: activity)
        if case .allMatching = scope { phase = .finding } else { phase = .running }
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
        guard isActive, !stopping else { return }
        stopping = true
        phase = .stopping
        endPause()
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
        stopwatch = Stopwatch(clock: activity.clock)
        let targets: [BulkTarget]
        switch scope {
        case .users(let users):
            targets = users
        case .allMatching(let query, let except):
            do {
                targets = try await find(query, except: except)
            } catch {
                findError = APIError.shown(for: error) ?? .transportFailed("cancelled")
                finish()
                return
            }
        }
        queue = targets
        live.total = targets.count
        sendingStarted = stopwatch.elapsed()
        if !stopping { phase = .running }
        publish(now: true)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(concurrency, targets.count) {
                group.addTask { await self.sendLoop() }
            }
        }
        finish()
    }

    /// Every user of `query` but `except`, read page by page (the largest pages there are).
    /// All are read before any is changed: changing them could move the rest between pages.
    private func find(_ query: Marks.Query, except: Set<String>) async throws -> [BulkTarget] {
        var found: [BulkTarget] = []
        var seen = Set<String>()
        var page = 1
        while !stopping {
            let request = query.filter.applied(to: UserQuery(
                page: page, perPage: Self.findPageSize, search: query.search.isEmpty ? nil : query.search, sort: query.sort))
            let result = try await directory.listUsers(request)
            live.requests += 1
            for user in result.items where !except.contains(user.id) && seen.insert(user.id).inserted {
                found.append(BulkTarget(user: user, isFresh: true))
            }
            live.found = found.count
            live.total = max(found.count, result.total - except.count)
            publish()
            let reachedEnd = result.items.count < Self.findPageSize || (!result.totalIsLowerBound && page * Self.findPageSize >= result.total)
            if reachedEnd { break }
            page += 1
        }
        return found
    }

    /// One worker: takes the next user, waits out a 429 pause, sends, counts; until none is
    /// left or the run is stopped.
    private func sendLoop() async {
        while let target = takeNext() {
            await waitWhilePaused()
            if Task.isCancelled {
                putBack(target) // the app is going away: count it as not started
                return
            }
            if stopping {
                putBack(target)
                return
            }
            inFlight += 1
            let (outcome, requests) = await Self.perform(action, on: target, directory: directory)
            inFlight -= 1
            live.requests += requests
            record(outcome, for: target)
        }
    }

    private func takeNext() -> BulkTarget? {
        guard !stopping else { return nil }
        if !requeued.isEmpty { return requeued.removeFirst() }
        guard nextIndex < queue.count else { return nil }
        defer { nextIndex += 1 }
        return queue[nextIndex]
    }

    private func putBack(_ target: BulkTarget) {
        requeued.insert(target, at: 0)
    }

    private func record(_ outcome: Outcome, for target: BulkTarget) {
        switch outcome {
        case .changed:
            live.succeeded += 1
        case .unchanged:
            live.unchanged += 1
        case .failed(let error):
            live.failed += 1
            liveFailures.append(BulkFailure(user: target.user, error: error))
        case .rateLimited(let wait, let error):
            let count = rateLimitCounts[target.id, default: 0] + 1
            rateLimitCounts[target.id] = count
            if count > Self.maximumRateLimitRetries {
                live.failed += 1
                liveFailures.append(BulkFailure(user: target.user, error: error))
            } else {
                // Not processed (RFC 6585): safe to send again, after the wait, before the others.
                requeued.append(target)
                pause(for: wait ?? Self.defaultRateLimitWait)
            }
        case .cancelled:
            putBack(target)
        }
        publish()
    }

    private func finish() {
        publishTimer?.cancel()
        publishTimer = nil
        endPause()
        wasStopped = stopping
        notStarted = requeued.count + max(0, queue.count - nextIndex)
        publish(now: true)
        phase = .finished
        onFinish?(self)
    }

    // MARK: Pauses: 429, and keys

    /// A key (or a click): the person comes first. On a machine whose cores the run keeps
    /// busy (the embedded server, the client and the UI share them), a key otherwise waits
    /// for the scheduler behind the run's threads: measured on two cores, j took 1.31 ms
    /// during a run against 1.08 ms with none. The requests in flight are answered; no new
    /// one starts until the keys pause for `keyGrace`, so a held key slows the run, which goes
    /// on at full speed the moment the keys stop.
    public func keysPressed() {
        guard phase == .running || phase == .finding else { return }
        pause(for: Self.keyGrace, rateLimited: false)
    }

    /// Every worker waits until `delay` from now (a later wait extends it; a shorter one
    /// leaves it). The timer moves rather than restarts: keys move it many times a second.
    private func pause(for delay: Duration, rateLimited: Bool = true) {
        let until = stopwatch.elapsed() + delay
        if let pausedUntil, pausedUntil >= until { return }
        pausedUntil = until
        // A key's pause outlasting a 429's: the rest of the wait is the key's.
        live.rateLimitedFor = rateLimited ? delay : nil
        pauseTimer.arm(after: delay) { [weak self] in self?.endPause() }
    }

    private func endPause() {
        pausedUntil = nil
        pauseTimer.disarm()
        live.rateLimitedFor = nil
        let waiters = pauseWaiters
        pauseWaiters = []
        for waiter in waiters { waiter.resume() }
        publish()
    }

    private func waitWhilePaused() async {
        guard pausedUntil != nil, !stopping else { return }
        await withCheckedContinuation { pauseWaiters.append($0) }
    }

    // MARK: Progress

    /// A frame is about to be drawn for a key: it shows the counts as they are, and the
    /// progress line's own next frame waits a whole interval from here. While keys come, the
    /// progress rides along in their frames instead of drawing frames of its own between
    /// them (each one more write to a terminal over SSH, and a key's answer held up).
    public func publishForFrame() {
        guard isActive else { return }
        publish(now: true)
    }

    /// Copies the live counts to what the screen sees: now, or at the next `progressInterval`.
    private func publish(now: Bool = false) {
        let elapsed = stopwatch.elapsed()
        live.elapsed = phase == .finding ? .zero : elapsed - sendingStarted
        if !now, let lastPublished, elapsed - lastPublished < Self.progressInterval {
            if publishTimer == nil {
                publishTimer = activity.schedule(after: Self.progressInterval - (elapsed - lastPublished)) { [weak self] in
                    self?.publishTimer = nil
                    // Not `now`: a key's frame may have shown the counts since this was set.
                    self?.publish()
                }
            }
            return
        }
        lastPublished = elapsed
        if progress != live { progress = live }
        if failures.count != liveFailures.count { failures = liveFailures }
    }

    // MARK: One user

    enum Outcome: Sendable {
        case changed
        case unchanged
        case failed(APIError)
        case rateLimited(Duration?, APIError)
        case cancelled
    }

    /// Applies `action` to one user, off the main actor; returns what happened and how many
    /// requests it took.
    nonisolated static func perform(
        _ action: BulkAction, on target: BulkTarget, directory: any Directory
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
                guard let draft = action.applied(to: user) else { return (.unchanged, requests) }
                requests += 1
                _ = try await directory.updateUser(id: target.id, with: draft)
            case .delete:
                requests += 1
                do {
                    try await directory.deleteUser(id: target.id)
                } catch APIError.notFound {
                    return (.unchanged, requests) // gone already: what was asked
                }
            case .addToGroup(let group), .removeFromGroup(let group):
                let isMember = target.user.groups.contains { $0.id == group.id }
                if case .addToGroup = action {
                    if target.isFresh, isMember { return (.unchanged, requests) }
                    requests += 1
                    try await directory.addMember(target.id, to: group.id)
                } else {
                    if target.isFresh, !isMember { return (.unchanged, requests) }
                    requests += 1
                    try await directory.removeMember(target.id, from: group.id)
                }
            }
            return (.changed, requests)
        } catch let error as APIError {
            if case .rateLimited(let wait, _) = error { return (.rateLimited(wait, error), requests) }
            return (.failed(error), requests)
        } catch {
            guard let shown = APIError.shown(for: error) else { return (.cancelled, requests) }
            return (.failed(shown), requests)
        }
    }
}
