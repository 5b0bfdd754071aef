import Synchronization

/// Counts the store's writes: it moves after every create, update and delete has committed.
///
/// A reader that notes the generation before reading and finds it unchanged afterwards knows
/// no write committed in between, so what it read is still the current answer. That is what
/// lets `ListResponseCache` keep answers without ever serving one a write has outdated.
final class WriteGeneration: Sendable {
    private let value = Atomic<UInt64>(0)

    var current: UInt64 { value.load(ordering: .acquiring) }

    /// Called after a write's transaction ends, never before: a reader that still sees the old
    /// generation may have read the old rows, and one that sees the new may not.
    func advance() {
        value.wrappingAdd(1, ordering: .releasing)
    }
}
