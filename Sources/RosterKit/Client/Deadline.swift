import Dispatch
import NIOConcurrencyHelpers

/// Runs `operation`, and if it has not finished `duration` from now on `clock`, cancels it
/// and throws `APIError.timedOut`. Cancelling the calling task cancels the operation at once.
func withDeadline<Result: Sendable>(
    _ duration: Duration,
    clock: any Clock<Duration>,
    _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await DeadlineWait.shared.sleep(for: duration, clock: clock)
            return nil
        }
        defer { group.cancelAll() }
        // The first child to finish decides: a result, an error, or nil for the deadline.
        guard let first = try await group.next() else { throw CancellationError() }
        guard let result = first else {
            try Task.checkCancellation()
            throw APIError.timedOut
        }
        return result
    }
}

/// The deadline's wait, which a cancel ends without leaving a timer behind. `Task.sleep` on
/// Linux leaves its timer (a `dispatch_after`) to fire at the deadline even when cancelled long
/// before: after a bulk run of 1,000 users, the 1,908 requests' 30 s deadlines woke the idle app
/// 30 to 32 s later, 90 ms of CPU (make bench: "after a bulk run: idle CPU"). On the real clock
/// the wait is a dispatch timer source, which a cancel takes out of libdispatch's timers. (A
/// NIO scheduled task was tried first: in the embedded case it shares the server's busy event
/// loops, and under the test suite's load a cancel took 2.5 s to land.)
final class DeadlineWait: Sendable {
    static let shared = DeadlineWait()
    /// This one's waits armed and not yet ended (for the tests).
    let armed = NIOLockedValueBox(0)

    private enum State {
        case pending
        case waiting(CheckedContinuation<Void, any Error>)
        case ended(fired: Bool)
        case consumed
    }

    func sleep(for duration: Duration, clock: any Clock<Duration>) async throws {
        guard clock is ContinuousClock else { return try await clock.sleep(for: duration) }
        try Task.checkCancellation()
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds >= Int64(Int.max / 1_000_000_000) ? Int.max : Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let state = NIOLockedValueBox(State.pending)
        // A dispatch source may be cancelled from any thread (libdispatch's contract); Linux's
        // Dispatch overlay does not mark it Sendable.
        nonisolated(unsafe) let timer = DispatchSource.makeTimerSource(queue: .global())
        @Sendable func end(fired: Bool) {
            let waiting: CheckedContinuation<Void, any Error>? = state.withLockedValue { current in
                switch current {
                case .pending:
                    current = .ended(fired: fired)
                    return nil
                case .waiting(let continuation):
                    current = .consumed
                    return continuation
                case .ended, .consumed:
                    return nil
                }
            }
            if fired { waiting?.resume() } else { waiting?.resume(throwing: CancellationError()) }
        }
        timer.setEventHandler {
            end(fired: true)
            timer.cancel() // a one-shot timer's source is released by its cancel
        }
        timer.setCancelHandler { [armed] in
            end(fired: false)
            armed.withLockedValue { $0 -= 1 }
        }
        armed.withLockedValue { $0 += 1 }
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds))
        timer.activate()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ended: Bool? = state.withLockedValue { current in
                    switch current {
                    case .pending:
                        current = .waiting(continuation)
                        return nil
                    case .ended(let fired):
                        current = .consumed
                        return fired
                    case .waiting, .consumed:
                        return nil
                    }
                }
                switch ended {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            timer.cancel()
        }
    }
}
