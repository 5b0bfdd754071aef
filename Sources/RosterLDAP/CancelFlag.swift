import RosterKit
import Synchronization

/// Set when the task waiting for a blocking LDAP call is cancelled; the call's thread looks at
/// it between waits and abandons the operation (`ldap_abandon_ext`).
final class CancelFlag: Sendable {
    private let state = Mutex(false)

    func cancel() { state.withLock { $0 = true } }

    var isCancelled: Bool { state.withLock { $0 } }
}
