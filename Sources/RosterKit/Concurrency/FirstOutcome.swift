import NIOConcurrencyHelpers

/// The first of several outcomes (a result, a deadline, a cancel), handed to the one caller
/// waiting for it; the later ones are dropped. It may be given before or after the caller
/// starts waiting, from any thread, and the caller resumes exactly once.
public final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var claimed = false
        var result: Result<T, any Error>?
        var waiting: CheckedContinuation<T, any Error>?
    }
    private let state = NIOLockedValueBox(State())

    public init() {}

    /// False when an outcome was given before: this one is dropped. When it is the first,
    /// `beforeAnswering` runs before the caller can have it (a deadline closes what the work
    /// held before the caller hears that it passed).
    @discardableResult
    public func give(_ result: Result<T, any Error>, beforeAnswering: () -> Void = {}) -> Bool {
        let first = state.withLockedValue { state in
            defer { state.claimed = true }
            return !state.claimed
        }
        guard first else { return false }
        beforeAnswering()
        let waiting: CheckedContinuation<T, any Error>? = state.withLockedValue { state in
            state.result = result
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(with: result)
        return true
    }

    /// The first outcome, once there is one. Only one caller may wait.
    public func wait() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<T, any Error>? = state.withLockedValue { state in
                if state.result == nil { state.waiting = continuation }
                return state.result
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
