/// A `Duration` as the numbers the rest of Roster hands to clocks, C calls, logs and benches:
/// one place for its `components` (seconds and attoseconds) arithmetic.
extension Duration {
    /// Whole nanoseconds, towards zero.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// In seconds, as a Double.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// In milliseconds, as a Double.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// "12.3": milliseconds with one decimal, for logs and `roster --check`. Tenths by hand:
    /// String(format:) goes through CoreFoundation.
    public var millisecondsText: String {
        let tenths = Int((milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
