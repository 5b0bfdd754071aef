/// A timer whose moment moves: `arm(after:_:)` sets when `body` runs, or moves it later if it
/// is already set, without a new task per call. A held j re-arms the detail pane's settle
/// timer sixty times a second; cancelling a sleeping task and starting another each time cost
/// two task lifecycles and a clock timer per key, more than the key's own frame. Here one task
/// sleeps; when it wakes before the moment (which moved), it sleeps again for the rest.
///
/// Counted by `Activity` as a pending timer while armed, so tests can wait for it.
@MainActor
final class MovableTimer {
    private let activity: Activity
    private let stopwatch: Stopwatch
    /// When `body` runs, on `stopwatch`; nil while disarmed.
    private var moment: Duration?
    private var body: (@MainActor () -> Void)?
    private var sleeper: Task<Void, Never>?
    /// This timer's id with `activity` while armed.
    private var timerID: Int?

    init(activity: Activity) {
        self.activity = activity
        stopwatch = Stopwatch(clock: activity.clock)
    }

    var isArmed: Bool { moment != nil }

    /// `body` runs once `delay` has passed from now, in place of whatever was armed.
    func arm(after delay: Duration, _ body: @escaping @MainActor () -> Void) {
        self.body = body
        moment = stopwatch.elapsed() + delay
        if let timerID {
            activity.timerMoved(timerID, due: delay)
        } else {
            timerID = activity.timerStarted(due: delay)
        }
        guard sleeper == nil else { return }
        sleep(for: delay)
    }

    /// Nothing runs. The sleeping task is cancelled (disarming is rare; re-arming is the
    /// common case, and it keeps the task).
    func disarm() {
        moment = nil
        body = nil
        sleeper?.cancel()
        sleeper = nil
        endTimer()
    }

    private func endTimer() {
        guard let timerID else { return }
        self.timerID = nil
        activity.timerEnded(timerID)
    }

    private func sleep(for delay: Duration) {
        let sleep = ClockSleep.sleeper(on: activity.clock, after: delay)
        sleeper = Task { [weak self] in
            guard (try? await sleep()) != nil, !Task.isCancelled, let self else { return }
            woke()
        }
    }

    private func woke() {
        guard let moment else { return }
        let now = stopwatch.elapsed()
        if now < moment {
            sleep(for: moment - now) // moved since this sleep began
            return
        }
        let body = self.body
        self.moment = nil
        self.body = nil
        sleeper = nil
        // The body first: what it starts (a load) is counted before waiters hear of quiet.
        body?()
        if self.moment == nil { endTimer() } // unless the body armed it again
    }
}
