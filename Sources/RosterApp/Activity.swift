import Observation

/// What the app is doing in the background: the loads in flight (the spinner turns while
/// there are any, and only then) and the timers that will start more (debounces).
///
/// Every model starts its I/O through here, so "is anything loading" is one observed flag,
/// and tests (and the front end's tests) can wait for the work to finish instead of polling.
@MainActor
@Observable
public final class Activity {
    /// About ten spinner frames a second.
    public static let spinnerInterval: Duration = .milliseconds(100)
    /// How long a background load (a page ahead of the viewport, a check of the user the
    /// detail pane already shows) may take before it turns the spinner: a quick one should
    /// not flash it, nor cost a redraw.
    public static let backgroundGrace: Duration = .milliseconds(250)

    /// Whether a load the person is waiting for is in flight.
    public private(set) var isBusy = false
    /// Advances every `spinnerInterval` while busy; nothing ticks while idle.
    public private(set) var spinnerFrame = 0

    @ObservationIgnored public let clock: any Clock<Duration>
    /// Loads not finished and not cancelled: what the spinner shows.
    @ObservationIgnored private var busyLoads = 0
    /// Load tasks whose body has not returned, cancelled ones included: a stale answer is
    /// handled (and dropped) before `waitForLoads()` returns.
    @ObservationIgnored private var liveLoads = 0
    /// Timers not yet fired nor cancelled, and when each is due (on `stopwatch`).
    @ObservationIgnored private var timers: [Int: Duration] = [:]
    @ObservationIgnored private var nextTimerID = 0
    @ObservationIgnored private let stopwatch: Stopwatch
    @ObservationIgnored private var ticker: Task<Void, Never>?
    @ObservationIgnored private var waiters: [Int: (includingTimers: Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
    @ObservationIgnored private var nextWaiterID = 0

    public init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
        stopwatch = Stopwatch(clock: clock)
    }

    /// Suspends until no load task is running and no timer that is due (its clock has reached
    /// it) has yet to run: what a due timer starts is waited for too. Timers not yet due are
    /// not waited for.
    public func waitForLoads() async {
        await wait(includingTimers: false)
    }

    /// Suspends until no load task is running and no timer is pending. A timer fires only
    /// when its clock reaches it: with a manual clock, advance it first.
    public func waitForIdle() async {
        await wait(includingTimers: true)
    }

    // MARK: For the models

    /// Runs `body` as a load: the spinner turns until it returns or is cancelled. With
    /// `spinnerAfter`, only once the load has taken that long: a quick background check of
    /// what is already on screen should not flash a spinner.
    func startLoad(spinnerAfter delay: Duration = .zero, _ body: @escaping @MainActor () async -> Void) -> TrackedTask {
        let handle = TrackedTask()
        liveLoads += 1
        var grace: Task<Void, Never>?
        var counted = false
        let count = { [weak self] in
            guard let self else { return }
            counted = true
            busyLoads += 1
            updateBusy()
        }
        if delay == .zero {
            count()
        } else {
            let sleep = ClockSleep.sleeper(on: clock, after: delay)
            grace = Task { if (try? await sleep()) != nil, !Task.isCancelled { count() } }
        }
        handle.onStop = { [weak self] in
            grace?.cancel()
            guard let self, counted else { return }
            busyLoads -= 1
            updateBusy()
        }
        handle.task = Task { [weak self] in
            await body()
            handle.stop()
            guard let self else { return }
            liveLoads -= 1
            resumeWaiters()
        }
        return handle
    }

    /// Runs `body` as tracked work that turns no spinner: a bulk run shows its own progress,
    /// and the spinner stays for the list's loads. `waitForLoads()` waits for it like a load.
    func startWork(_ body: @escaping @MainActor () async -> Void) -> TrackedTask {
        let handle = TrackedTask()
        liveLoads += 1
        handle.task = Task { [weak self] in
            await body()
            guard let self else { return }
            liveLoads -= 1
            resumeWaiters()
        }
        return handle
    }

    /// Runs `body` once `delay` has passed on the clock, unless cancelled first.
    func schedule(after delay: Duration, _ body: @escaping @MainActor () -> Void) -> TrackedTask {
        let handle = TrackedTask()
        let sleep = ClockSleep.sleeper(on: clock, after: delay)
        let id = timerStarted(due: delay)
        handle.task = Task { [weak self] in
            if (try? await sleep()) != nil, !Task.isCancelled { body() }
            self?.timerEnded(id)
        }
        return handle
    }

    /// A timer due `delay` from now: its id, for `timerMoved` and `timerEnded`.
    func timerStarted(due delay: Duration) -> Int {
        nextTimerID += 1
        timers[nextTimerID] = stopwatch.elapsed() + delay
        return nextTimerID
    }

    /// The timer is now due `delay` from now (a `MovableTimer` re-armed).
    func timerMoved(_ id: Int, due delay: Duration) {
        guard timers[id] != nil else { return }
        timers[id] = stopwatch.elapsed() + delay
    }

    /// The timer fired (and its body ran) or was cancelled.
    func timerEnded(_ id: Int) {
        guard timers.removeValue(forKey: id) != nil else { return }
        resumeWaiters()
    }

    // MARK: Spinner

    private func updateBusy() {
        let busy = busyLoads > 0
        guard busy != isBusy else { return }
        isBusy = busy
        if busy {
            let tick = ClockSleep.metronome(on: clock, interval: Self.spinnerInterval)
            ticker = Task { [weak self] in
                var beat = 0
                while true {
                    let reached: Int
                    do { reached = try await tick(beat) } catch { return }
                    guard !Task.isCancelled, let self else { return }
                    self.spinnerFrame &+= reached - beat
                    beat = reached
                }
            }
        } else {
            ticker?.cancel()
            ticker = nil
        }
    }

    // MARK: Waiting

    private func isQuiet(includingTimers: Bool) -> Bool {
        guard liveLoads == 0 else { return false }
        if includingTimers { return timers.isEmpty }
        let now = stopwatch.elapsed()
        return !timers.values.contains { $0 <= now }
    }

    /// Returns when quiet, or when the waiting task is cancelled (a test's time limit), so a
    /// wait that can never end fails the test instead of hanging the run.
    private func wait(includingTimers: Bool) async {
        guard !isQuiet(includingTimers: includingTimers) else { return }
        nextWaiterID += 1
        let id = nextWaiterID
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = (includingTimers, continuation)
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.waiters.removeValue(forKey: id)?.continuation.resume() }
        }
    }

    private func resumeWaiters() {
        for (id, waiter) in waiters where isQuiet(includingTimers: waiter.includingTimers) {
            waiters[id] = nil
            waiter.continuation.resume()
        }
    }
}

/// A load or timer started through `Activity`. Cancelling it stops the spinner's count at
/// once, even if the call it awaits does not notice the cancellation.
@MainActor
final class TrackedTask {
    fileprivate var task: Task<Void, Never>?
    fileprivate var onStop: (() -> Void)?

    func cancel() {
        task?.cancel()
        stop()
    }

    fileprivate func stop() {
        let onStop = self.onStop
        self.onStop = nil
        onStop?()
    }
}
