import RosterKit

/// How far a run has got: what the progress line and the summary show.
public struct BulkProgress: Sendable, Equatable {
    /// Users to act on (while finding "all matching", the count marked).
    public var total: Int
    /// While finding "all matching": users found so far.
    public var found = 0
    /// Users changed.
    public var succeeded = 0
    /// Users already as asked (already suspended, already gone…): nothing was sent to change them.
    public var unchanged = 0
    public var failed = 0
    /// Requests sent, reads and list pages included.
    public var requests = 0
    /// Time spent sending (after finding), for the rate and what is left.
    public var elapsed: Duration = .zero
    /// Set while the server asked to wait (429 `Retry-After`): how long, from `elapsed`.
    public var rateLimitedFor: Duration?

    public init(total: Int) {
        self.total = total
    }

    public var done: Int { succeeded + unchanged + failed }

    /// Users per second so far; nil before the first one is done.
    public var rate: Double? {
        let seconds = elapsed.seconds
        guard done > 0, seconds > 0 else { return nil }
        return Double(done) / seconds
    }

    /// Requests per second so far.
    public var requestRate: Double? {
        let seconds = elapsed.seconds
        guard requests > 0, seconds > 0 else { return nil }
        return Double(requests) / seconds
    }

    /// At the rate so far.
    public var timeLeft: Duration? {
        guard let rate, rate > 0 else { return nil }
        return .seconds(Double(max(0, total - done)) / rate)
    }

    /// 0...1 of the users done.
    public var fraction: Double {
        total > 0 ? min(1, Double(done) / Double(total)) : 1
    }
}

/// A user the action could not be applied to, and why.
public struct BulkFailure: Sendable, Equatable {
    public var user: User
    public var error: APIError

    /// The sentence: the server's own message when it sent one.
    public var reason: String {
        error.errorDescription ?? "It failed."
    }
}

extension Duration {
    /// In seconds, as a Double.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Durations and rates as the progress line and the summary print them.
public enum BulkFormat {
    /// "0.8 s", "12 s", "3 min 20 s".
    public static func duration(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds < 10 { return oneDecimal(seconds) + " s" }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s"
    }

    /// "85/s", "0.4/s".
    public static func rate(_ rate: Double) -> String {
        rate >= 10 ? "\(CountFormat.grouped(Int(rate.rounded())))/s" : oneDecimal(rate) + "/s"
    }

    /// 3.14159 → "3.1" (no Foundation formatter in the models).
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((max(0, value) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
