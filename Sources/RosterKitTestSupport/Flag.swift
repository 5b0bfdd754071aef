import NIOConcurrencyHelpers

/// A flag set from any thread, read by a test.
public final class Flag: Sendable {
    private let value = NIOLockedValueBox(false)
    public init() {}
    public var isSet: Bool { value.withLockedValue { $0 } }
    public func set() { value.withLockedValue { $0 = true } }
}
