import Observation
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Whether anything read in `read` is reported changed by Observation while `action` runs:
/// what the front end's withObservationTracking would see.
@MainActor
func observedChange(of read: @MainActor () -> Void, during action: @MainActor () -> Void) -> Bool {
    // onChange is @Sendable; the flag may be set from anywhere.
    let box = Flag()
    withObservationTracking { read() } onChange: { box.set() }
    action()
    return box.isSet
}

let unavailable = APIError.serviceUnavailable(retryAfter: nil, nil)
