import RosterKit
import NIOConcurrencyHelpers

/// Set when the task waiting for a blocking LDAP call is cancelled; the call's thread looks at
/// it between waits and abandons the operation (`ldap_abandon_ext`).
final class CancelFlag: Sendable {
    private let state = NIOLockedValueBox(false)

    func cancel() { state.withLockedValue { $0 = true } }

    var isCancelled: Bool { state.withLockedValue { $0 } }
}
