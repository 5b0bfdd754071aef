import Foundation

/// How many times slower than usual this test process runs: `ROSTER_TEST_TIME_SCALE`, which
/// `make test-tsan` sets (ThreadSanitizer makes everything several times slower), else 1.
/// Tests multiply their waits and time bounds by it (`Duration.scaledForTests`), so the same
/// test passes under the sanitizer and stays as strict as written in `make test`.
public enum TestTimeScale {
    public static let factor: Double = parse(ProcessInfo.processInfo.environment["ROSTER_TEST_TIME_SCALE"])

    /// A positive number, or 1 for anything else (unset, empty, not a number, zero or less).
    public static func parse(_ text: String?) -> Double {
        guard let text, let value = Double(text), value.isFinite, value > 0 else { return 1 }
        return value
    }
}

extension Duration {
    /// This duration stretched by `TestTimeScale.factor`: a wait or a bound in a test.
    public var scaledForTests: Duration { self * TestTimeScale.factor }
}
