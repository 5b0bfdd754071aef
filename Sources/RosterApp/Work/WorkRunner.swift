import Observation
import RosterJournal
import RosterKit

/// Runs many independent requests, a few at a time, for every long job that writes: a bulk
/// run and an import alike. It owns what they share:
///
/// - `concurrency` workers take items in order;
/// - a 429 (which the server did not process, RFC 6585) holds every worker for the server's
///   `Retry-After` and sends that item again first, up to `maximumRateLimitRetries` times;
/// - a key holds new requests for `keyGrace`, so the person comes first on shared cores;
/// - `stop()` (Esc) starts no new request; the ones in flight finish and are counted;
/// - the progress the screen sees moves at most every `progressInterval`.
///
/// A job that writes opens a journal run first (`openJournalRun`): its items' writes carry
/// the run's id, and the runner closes the run when it ends (done or stopped). A run the app
/// never closed (a crash) is found at the next start (`ChangeJournal.markInterrupted`).
///
/// No item is sent twice by the runner except after a 429. What an item means (a user to
/// suspend, a row to create) and what its answer was (`Result`) are the job's: it sends the
/// item in `perform` and keeps the result in `record`.
@MainActor
@Observable
final class WorkRunner<Item: Sendable, Result: Sendable> {
    /// What sending one item came to.
    enum Step: Sendable {
        case changed(Result)
        /// Already as asked: nothing had to change.
        case unchanged(Result)
        case failed(Result)
        /// Turned away with 429: sent again after the wait (how long, if the server said).
        case rateLimited(Duration?, APIError)
        /// The app is going away: counted as not started.
        case cancelled
    }

    /// Requests at once: a few, so a job is quick without crowding out the list's own pages.
    nonisolated static var defaultConcurrency: Int { 4 }
    /// The progress the screen shows moves at most this often (a job can do hundreds of items
    /// a second; the terminal needs ten frames).
    nonisolated static var progressInterval: Duration { .milliseconds(100) }
    /// How often one item may be turned away with 429 before that counts as its failure.
    nonisolated static var maximumRateLimitRetries: Int { 5 }
    /// The wait after a 429 that did not say how long.
    nonisolated static var defaultRateLimitWait: Duration { .seconds(1) }
    /// Keys outrank the job: after each key, no new request starts for this long. Longer than
    /// the gap between a key's frame and the next key of a fast typist; shorter than anyone
    /// notices a job stalling.
    nonisolated static var keyGrace: Duration { .milliseconds(30) }

    /// As the screen shows it: updated at most every `progressInterval`, and at the end.
    private(set) var progress: WorkProgress
    /// Told after each publication of the progress: the job publishes what it keeps with it.
    @ObservationIgnored var onPublish: (@MainActor () -> Void)?
    /// Requests in flight now (at most `concurrency`).
    @ObservationIgnored private(set) var inFlight = 0
    @ObservationIgnored private(set) var isStopping = false
    /// Items nothing was sent for because the job was stopped (known once `run` returns).
    @ObservationIgnored private(set) var notStarted = 0
    /// The counts as they are now; the screen sees them at the next publication.
    @ObservationIgnored var live: WorkProgress

    @ObservationIgnored let concurrency: Int
    /// The journal run open for this job, closed when `run` returns.
    @ObservationIgnored private(set) var journalRun: (journal: ChangeJournal, id: String)?
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private var queue: [Item] = []
    @ObservationIgnored private var nextIndex = 0
    /// Items a 429 turned away (or that a stop caught before sending): sent again first.
    @ObservationIgnored private var requeued: [Int] = []
    @ObservationIgnored private var rateLimitCounts: [Int: Int] = [:]
    @ObservationIgnored private var stopwatch: Stopwatch
    @ObservationIgnored private var sendingStarted: Duration?
    @ObservationIgnored private var lastPublished: Duration?
    @ObservationIgnored private var publishTimer: TrackedTask?
    @ObservationIgnored private var pausedUntil: Duration?
    @ObservationIgnored private var pauseTimer: MovableTimer
    @ObservationIgnored private var pauseWaiters: [CheckedContinuation<Void, Never>] = []

    init(progress: WorkProgress, concurrency: Int = WorkRunner.defaultConcurrency, activity: Activity) {
        self.progress = progress
        self.live = progress
        self.concurrency = max(1, concurrency)
        self.activity = activity
        self.stopwatch = Stopwatch(clock: activity.clock)
        self.pauseTimer = MovableTimer(activity: activity)
    }

    /// Sends every item, `concurrency` at a time, until all are answered or the job is stopped.
    /// `perform` runs off the main actor and says what became of the item and how many
    /// requests that took; `record` sees each item's final step (never a 429 that is retried;
    /// one turned away too often is failed with `giveUp`'s result).
    func run(_ items: [Item], perform: @escaping @Sendable (Item) async -> (step: Step, requests: Int),
             giveUp: @escaping (Item, APIError) -> Result,
             willSend: ((Item) -> Void)? = nil, record: @escaping (Item, Step) -> Void) async {
        job = Job(perform: perform, giveUp: giveUp, willSend: willSend, record: record)
        queue = items
        live.total = items.count
        live.isTotalKnown = true
        sendingStarted = stopwatch.elapsed()
        publish(now: true)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(concurrency, items.count) {
                group.addTask { await self.workerLoop() }
            }
        }
        publishTimer?.cancel()
        publishTimer = nil
        endPause()
        notStarted = requeued.count + max(0, queue.count - nextIndex)
        job = nil
        if let (journal, id) = journalRun {
            journalRun = nil
            try? await journal.finishRun(id, state: isStopping ? .stopped : .done)
        }
        publish(now: true)
    }

    /// Opens the journal run this job's writes go in, and returns its id for them; nil when
    /// there is no journal (or it could not be written: then each write says so as it fails).
    func openJournalRun(_ recorder: ChangeRecorder, what: String, count: Int, plan: JournalPlan?, undoes: String?) async -> String? {
        guard let journal = recorder.journal else { return nil }
        let run = JournalRun(connection: recorder.connection, what: what, count: count, undoes: undoes, plan: plan)
        do {
            try await journal.startRun(run)
        } catch {
            return nil
        }
        journalRun = (journal, run.id)
        return run.id
    }

    /// Esc: no new requests; the ones in flight finish and are counted.
    func stop() {
        guard !isStopping else { return }
        isStopping = true
        endPause()
    }

    // MARK: Workers

    /// What `run` was given, for its workers.
    private struct Job {
        var perform: @Sendable (Item) async -> (step: Step, requests: Int)
        var giveUp: (Item, APIError) -> Result
        var willSend: ((Item) -> Void)?
        var record: (Item, Step) -> Void
    }

    @ObservationIgnored private var job: Job?

    private func workerLoop() async {
        guard let job else { return }
        while let (index, item) = takeNext() {
            await waitWhilePaused()
            if Task.isCancelled || isStopping {
                putBack(index) // the app is going away, or Esc: not started
                return
            }
            inFlight += 1
            job.willSend?(item)
            let (step, requests) = await job.perform(item)
            inFlight -= 1
            live.requests += requests
            count(step, index: index, item: item, giveUp: job.giveUp, record: job.record)
        }
    }

    private func takeNext() -> (Int, Item)? {
        guard !isStopping else { return nil }
        if !requeued.isEmpty {
            let index = requeued.removeFirst()
            return (index, queue[index])
        }
        guard nextIndex < queue.count else { return nil }
        defer { nextIndex += 1 }
        return (nextIndex, queue[nextIndex])
    }

    private func putBack(_ index: Int) {
        requeued.insert(index, at: 0)
    }

    private func count(_ step: Step, index: Int, item: Item, giveUp: (Item, APIError) -> Result, record: (Item, Step) -> Void) {
        switch step {
        case .changed:
            live.succeeded += 1
            record(item, step)
        case .unchanged:
            live.unchanged += 1
            record(item, step)
        case .failed:
            live.failed += 1
            record(item, step)
        case .rateLimited(let wait, let error):
            let count = rateLimitCounts[index, default: 0] + 1
            rateLimitCounts[index] = count
            if count > Self.maximumRateLimitRetries {
                live.failed += 1
                record(item, .failed(giveUp(item, error)))
            } else {
                // Not processed: safe to send again, after the wait, before the others.
                requeued.append(index)
                pause(for: wait ?? Self.defaultRateLimitWait)
            }
        case .cancelled:
            putBack(index)
        }
        publish()
    }

    // MARK: Pauses: 429, and keys

    /// A key (or a click): the person comes first. On a machine whose cores the job keeps
    /// busy (the embedded server, the client and the UI share them), a key otherwise waits for
    /// the scheduler behind the job's threads: measured on two cores, j took 1.31 ms during a
    /// run against 1.08 ms with none. The requests in flight are answered; no new one starts
    /// until the keys pause for `keyGrace`.
    func keysPressed() {
        guard !isStopping else { return }
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
        guard pausedUntil != nil, !isStopping else { return }
        await withCheckedContinuation { pauseWaiters.append($0) }
    }

    // MARK: Progress

    /// Copies the live counts to what the screen sees: now, or at the next `progressInterval`.
    /// Before sending starts (a bulk run finding its users), no time counts.
    func publish(now: Bool = false) {
        let elapsed = stopwatch.elapsed()
        live.elapsed = sendingStarted.map { elapsed - $0 } ?? .zero
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
        onPublish?()
    }
}
