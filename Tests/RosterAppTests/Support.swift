import Observation
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Waits, by yielding (never by time), until `condition` holds; false if it never does
/// within `maximumYields`. For conditions no event announces, such as "the newest results are
/// on screen while an older call is still held".
@MainActor
func eventually(maximumYields: Int = 200_000, _ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<maximumYields {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

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
