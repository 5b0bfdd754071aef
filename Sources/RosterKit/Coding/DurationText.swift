extension Duration {
    /// "12.3": milliseconds with one decimal, for logs and `roster --check`. Tenths by hand:
    /// String(format:) goes through CoreFoundation.
    public var millisecondsText: String {
        let (seconds, attoseconds) = components
        let tenths = Int((Double(seconds) * 10_000 + Double(attoseconds) / 1e14).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
