import RosterKit

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
        let outcome = FirstOutcome<T>()
        let task = Task {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.give(result)
        }
        // A timer a cancel takes out (one per call, 15 s each, at thousands of calls a second).
        let timer = OneShotTimer(after: deadline, fire: {
            outcome.give(.failure(Passed())) {
                task.cancel()
                abandon()
            }
        })
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await outcome.wait()
        } onCancel: {
            task.cancel()
        }
    }
}
