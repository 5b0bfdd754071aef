import NIOConcurrencyHelpers

/// A clock that only moves when a test says so. Sleepers wake, in deadline order, when
/// `advance(by:)` passes their deadline; a cancelled sleeper throws `CancellationError` at once.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public init(offset: Duration = .zero) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant()
        var nextID = 0
        var sleepers: [Sleeper] = []
        var cancelledBeforeRegistering: Set<Int> = []
        /// Every duration a sleeper asked for, in order: lets tests assert backoff delays.
        var requestedSleeps: [Duration] = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public var now: Instant { state.withLockedValue { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock right now.
    public var sleeperCount: Int { state.withLockedValue { $0.sleepers.count } }

    /// The durations of every sleep requested so far, in order.
    public var requestedSleeps: [Duration] { state.withLockedValue { $0.requestedSleeps } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLockedValue { state -> Int in
            state.nextID += 1
            state.requestedSleeps.append(state.now.duration(to: deadline))
            return state.nextID
        }
        if deadline <= now {
            await Task.yield()
            return
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked again under the lock: an advance() between the check above and
                // here would otherwise leave this sleeper, already due, waiting forever.
                enum Registration { case waiting, due, cancelled }
                let registration = state.withLockedValue { state -> Registration in
                    if state.cancelledBeforeRegistering.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .waiting
                }
                switch registration {
                case .waiting: break
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { state -> Sleeper? in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index)
                }
                state.cancelledBeforeRegistering.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward, waking every sleeper whose deadline is reached, earliest first,
    /// and gives the woken tasks a chance to run.
    public func advance(by duration: Duration) async {
        let target = now.advanced(by: duration)
        while true {
            let next = state.withLockedValue { state -> Sleeper? in
                guard let index = state.sleepers.indices.min(by: { state.sleepers[$0].deadline < state.sleepers[$1].deadline }),
                      state.sleepers[index].deadline <= target
                else {
                    // Moving time in the same step as the last look for due sleepers: one that
                    // registers afterwards sees the new time and does not wait.
                    state.now = max(state.now, target)
                    return nil
                }
                let sleeper = state.sleepers.remove(at: index)
                state.now = max(state.now, sleeper.deadline)
                return sleeper
            }
            guard let next else { break }
            next.continuation.resume()
            await settle()
        }
        await settle()
    }

    /// Waits until at least `count` tasks sleep on this clock: by yielding, then, on a machine
    /// too loaded to have run the sleeper's task by then (it may be on another executor), by
    /// time (`eventually`). Returns false if that does not happen either way. Advancing before
    /// a sleeper registers would move its deadline past the advance, and the test would hang.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, maximumYields: Int = 100_000) async -> Bool {
        for _ in 0..<maximumYields {
            if sleeperCount >= count { return true }
            await Task.yield()
        }
        return await eventually { sleeperCount >= count }
    }

    /// Waits (by yielding) until some task has asked to sleep for `duration`: other sleepers
    /// (a request's deadline) may register first, so counting them says nothing of this one.
    @discardableResult
    public func waitForRequestedSleep(_ duration: Duration, maximumYields: Int = 100_000) async -> Bool {
        for _ in 0..<maximumYields {
            if requestedSleeps.contains(duration) { return true }
            await Task.yield()
        }
        return await eventually { requestedSleeps.contains(duration) }
    }

    private func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }
}
