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
/// the wait is a `OneShotTimer`, which a cancel takes out of libdispatch's timers. (A NIO
/// scheduled task was tried first: in the embedded case it shares the server's busy event
/// loops, and under the test suite's load a cancel took 2.5 s to land.)
final class DeadlineWait: Sendable {
    static let shared = DeadlineWait()
    /// This one's waits armed and not yet ended (for the tests).
    let armed = NIOLockedValueBox(0)

    func sleep(for duration: Duration, clock: any Clock<Duration>) async throws {
        guard clock is ContinuousClock else { return try await clock.sleep(for: duration) }
        try Task.checkCancellation()
        let outcome = FirstOutcome<Void>()
        armed.withLockedValue { $0 += 1 }
        let timer = OneShotTimer(after: duration, fire: { outcome.give(.success(())) }, ended: { [armed] in
            outcome.give(.failure(CancellationError()))
            armed.withLockedValue { $0 -= 1 }
        })
        try await withTaskCancellationHandler {
            try await outcome.wait()
        } onCancel: {
            timer.cancel()
        }
    }
}
