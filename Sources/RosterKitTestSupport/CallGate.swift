import NIOConcurrencyHelpers

/// A door that held repository calls wait behind until a test opens it.
///
/// A held call ignores cancellation on purpose: it stands for an answer that is already on
/// the wire when the client gives up on it, so tests can deliver a stale response after newer
/// ones and check that the app drops it.
public final class CallGate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        var held: [CheckedContinuation<Void, Never>] = []
        var arrivalWaiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiterID = 0
        var cancelledWaiters: Set<Int> = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// How many calls have reached the gate so far.
    public var arrivals: Int { state.withLockedValue { $0.arrivals } }

    public var isOpen: Bool { state.withLockedValue { $0.isOpen } }

    /// Lets every held call through, and every later one.
    public func open() {
        let held = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    /// Suspends until the gate is open (at once if it already is). Not cancellable.
    public func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (passNow, ready) = state.withLockedValue { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                state.arrivals += 1
                let arrived = state.arrivals
                let ready = state.arrivalWaiters.filter { $0.count <= arrived }.map(\.continuation)
                state.arrivalWaiters.removeAll { $0.count <= arrived }
                if state.isOpen { return (true, ready) }
                state.held.append(continuation)
                return (false, ready)
            }
            for waiter in ready { waiter.resume() }
            if passNow { continuation.resume() }
        }
    }

    /// Suspends until at least `count` calls have reached the gate: the test then knows the
    /// request was sent, without polling. Returns early if the waiting task is cancelled (a
    /// test's time limit), so a call that never comes fails the test instead of hanging it.
    public func waitForArrivals(_ count: Int = 1) async {
        let id = state.withLockedValue { state -> Int in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLockedValue { state -> Bool in
                    if state.arrivals >= count || state.cancelledWaiters.remove(id) != nil { return true }
                    state.arrivalWaiters.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                if let index = state.arrivalWaiters.firstIndex(where: { $0.id == id }) {
                    return state.arrivalWaiters.remove(at: index).continuation
                }
                state.cancelledWaiters.insert(id)
                return nil
            }
            waiter?.resume()
        }
    }
}
