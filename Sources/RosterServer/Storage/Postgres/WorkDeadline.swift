import Dispatch
import NIOConcurrencyHelpers

/// Runs work whose caller must not wait for it forever, and answers the caller when the work
/// ends or when the deadline passes, whichever comes first.
///
/// Why: PostgresNIO 1.33.2 can leave a query, or a wait for a connection, unanswered for good
/// when PostgreSQL restarts under it (upstream vapor/postgres-nio#657 is one such case; a
/// restart every 1.5 s under 12 clients stranded requests within a minute, docs/testing.md).
/// A request handler that never ends also holds up roster-server's graceful shutdown. So the
/// work runs in a task of its own: past the deadline it is cancelled, `abandon` is called (the
/// store closes the connection, and PostgreSQL rolls back whatever was in flight on it), and
/// nobody waits for it any more.
enum WorkDeadline {
    /// The deadline passed before the work ended.
    struct Passed: Error, Equatable {}

    static func run<T: Sendable>(
        within deadline: Duration,
        abandon: @escaping @Sendable () -> Void,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let answer = Answer<T>()
        let task = Task {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            answer.give(result)
        }
        // A timer source, which a cancel takes out of libdispatch's timers (a cancelled
        // `asyncAfter` item stays queued until its time: one per call, 15 s each, at thousands
        // of calls a second).
        nonisolated(unsafe) let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler {
            timer.cancel()
            guard answer.give(.failure(Passed())) else { return }
            task.cancel()
            abandon()
        }
        let (seconds, attoseconds) = deadline.components
        timer.schedule(deadline: .now() + .nanoseconds(Int(min(seconds, 86_400)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
        timer.activate()
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await answer.wait()
        } onCancel: {
            task.cancel()
        }
    }

    /// The first of the work's result and the deadline, handed to the one waiting caller.
    private final class Answer<T: Sendable>: Sendable {
        private struct State {
            var answered = false
            var result: Result<T, any Error>?
            var waiting: CheckedContinuation<T, any Error>?
        }
        private let state = NIOLockedValueBox(State())

        /// False when an answer was already given: this one is dropped.
        @discardableResult
        func give(_ result: Result<T, any Error>) -> Bool {
            let waiting: CheckedContinuation<T, any Error>?? = state.withLockedValue { state in
                guard !state.answered else { return .none }
                state.answered = true
                state.result = result
                defer { state.waiting = nil }
                return .some(state.waiting)
            }
            guard let waiting else { return false }
            waiting?.resume(with: result)
            return true
        }

        func wait() async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<T, any Error>? = state.withLockedValue { state in
                    if !state.answered { state.waiting = continuation }
                    return state.result
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}
