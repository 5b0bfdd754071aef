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
            try await clock.sleep(for: duration)
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
