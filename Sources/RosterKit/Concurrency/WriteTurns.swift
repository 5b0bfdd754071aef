import NIOConcurrencyHelpers

/// Writers take turns, first come first served, each holding its turn across awaits. Used
/// where a write spans awaits and must not interleave with another: a SQLite transaction
/// (RosterServer's `SQLiteWriter`), and a SCIM group's members PUT back whole after a read
/// (`SCIMDirectory.changeMembers`).
public final class WriteTurns: Sendable {
    private struct State {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Runs `body` in its turn; the next waiting writer's turn begins when it returns or throws.
    /// It runs on the caller's executor, so an actor's own code can run in its turn.
    public init() {}

    nonisolated(nonsending) public func inTurn<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await take()
        defer { pass() }
        return try await body()
    }

    private func take() async {
        // A free turn is taken without suspending: a suspension costs a hop through the
        // executor, on every SQLite write.
        let isFree = state.withLockedValue { state in
            guard !state.taken else { return false }
            state.taken = true
            return true
        }
        if isFree { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isMine = state.withLockedValue { state in
                guard state.taken else {
                    state.taken = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if isMine { continuation.resume() }
        }
    }

    private func pass() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.taken = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
