import NIOConcurrencyHelpers

/// Calls `fire` once, `delay` from now, unless cancelled first; then `ended`, once, either way.
///
/// A timer of `WorkerPool`, because a cancel takes it out at once: a cancelled `Task.sleep` or
/// `asyncAfter` on Linux stays queued until its time, and thousands of abandoned deadlines woke
/// an idle process long after (docs/benchmarks.md, "after a bulk run: idle CPU"). Used by the
/// client's request deadlines (`DeadlineWait`) and roster-server's database deadlines
/// (`WorkDeadline`).
public final class OneShotTimer: Sendable {
    private let pool: WorkerPool
    private let timer = NIOLockedValueBox<WorkerPool.TimerID?>(nil)
    private let ended: (@Sendable () -> Void)?

    public init(after delay: Duration, fire: @escaping @Sendable () -> Void, ended: (@Sendable () -> Void)? = nil) {
        let pool = WorkerPool.shared
        self.pool = pool
        self.ended = ended
        // Set under the box's lock, so a cancel right after init cannot miss the timer.
        timer.withLockedValue { timer in
            timer = pool.schedule(after: delay) {
                fire()
                ended?()
            }
        }
    }

    /// Takes the timer out if it has not fired; `ended` still runs (on the pool, as when it
    /// fires). Safe to call more than once.
    public func cancel() {
        guard let id = timer.withLockedValue({ timer in defer { timer = nil }; return timer }), pool.cancel(id) else { return }
        if let ended { pool.run(ended) }
    }
}
