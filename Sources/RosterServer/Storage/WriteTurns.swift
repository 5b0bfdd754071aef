import Synchronization

/// Writers take turns, first come first served, each holding its turn across awaits: SQLite's
/// writer connection runs one transaction at a time, and a transaction that awaits between its
/// statements (`SQLiteWriter`) must not see another's statements run inside it.
final class WriteTurns: Sendable {
    private struct State {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Runs `body` in its turn; the next waiting writer's turn begins when it returns or throws.
    func inTurn<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await take()
        defer { pass() }
        return try await body()
    }

    private func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isMine = state.withLock { state in
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
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.taken = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
