import Dispatch

/// Calls `fire` once, `delay` from now, unless cancelled first; then `ended`, once, either way.
///
/// A dispatch timer source, because a cancel takes it out of libdispatch's timers: a cancelled
/// `Task.sleep` or `asyncAfter` on Linux stays queued until its time, and thousands of
/// abandoned deadlines wake an idle process long after (docs/benchmarks.md, "after a bulk run:
/// idle CPU"). Used by the client's request deadlines (`DeadlineWait`) and roster-server's
/// database deadlines (`WorkDeadline`).
public final class OneShotTimer: Sendable {
    // A dispatch source may be cancelled from any thread (libdispatch's contract); Linux's
    // Dispatch overlay does not mark it Sendable.
    nonisolated(unsafe) private let source: any DispatchSourceTimer

    public init(after delay: Duration, fire: @escaping @Sendable () -> Void, ended: (@Sendable () -> Void)? = nil) {
        let source = DispatchSource.makeTimerSource(queue: .global())
        self.source = source
        nonisolated(unsafe) let timer = source
        source.setEventHandler {
            fire()
            timer.cancel() // a one-shot timer's source is released by its cancel
        }
        if let ended { source.setCancelHandler(handler: ended) }
        source.schedule(deadline: .now() + .nanoseconds(Self.nanoseconds(delay)))
        source.activate()
    }

    /// Takes the timer out if it has not fired; `ended` still runs. Safe to call more than once.
    public func cancel() {
        source.cancel()
    }

    /// `delay` in nanoseconds, a century at most (beyond that, `Int` would overflow).
    static func nanoseconds(_ delay: Duration) -> Int {
        let (seconds, attoseconds) = delay.components
        guard seconds > 0 || attoseconds > 0 else { return 0 }
        let century: Int64 = 100 * 365 * 86_400
        return Int(min(seconds, century)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}
