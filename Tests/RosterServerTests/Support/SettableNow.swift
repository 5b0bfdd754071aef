import Foundation
import NIOConcurrencyHelpers

/// A "now" a test moves by hand, for `withServer(now:)`: it proves what happens a day later
/// without waiting a day.
final class SettableNow: Sendable {
    private let value: NIOLockedValueBox<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        value = NIOLockedValueBox(start)
    }

    var date: Date { value.withLockedValue { $0 } }

    func advance(by interval: TimeInterval) {
        value.withLockedValue { $0 += interval }
    }

    /// As `ServerConfiguration.now` takes it.
    var function: @Sendable () -> Date { { self.date } }
}
