import RosterKit

/// How far a long job is (a bulk run, an import, an export): what its progress line and its
/// summary show. The rate is the average over the job so far, steadier than the last step's;
/// time is read off the app's clock, so a test's manual clock gives exact rates.
public struct WorkProgress: Sendable, Equatable {
    /// How many there are to do (while a bulk run finds "all matching": the count marked).
    public var total: Int
    /// False while the total is a guess (an export before its first page, a SCIM service
    /// that has not said): the bar and the time left wait for it.
    public var isTotalKnown = true
    /// While a bulk run finds "all matching": users found so far.
    public var found = 0
    /// Done and changed (a user suspended, created, a row written).
    public var succeeded = 0
    /// Already as asked (already suspended, already there…): nothing was sent to change them.
    public var unchanged = 0
    public var failed = 0
    /// Requests sent, reads and list pages included.
    public var requests = 0
    /// Time spent doing (after finding), for the rate and what is left.
    public var elapsed: Duration = .zero
    /// Set while the server asked to wait (429 `Retry-After`): how long, from `elapsed`.
    public var rateLimitedFor: Duration?

    public init(total: Int, isTotalKnown: Bool = true) {
        self.total = total
        self.isTotalKnown = isTotalKnown
    }

    public var done: Int { succeeded + unchanged + failed }

    /// Done per second so far; nil before the first one is done.
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

    /// At the rate so far; nil while it cannot be told.
    public var timeLeft: Duration? {
        guard isTotalKnown, let rate, rate > 0 else { return nil }
        return .seconds(Double(max(0, total - done)) / rate)
    }

    /// 0...1 of the total done; nil while the total is not known.
    public var fraction: Double? {
        guard isTotalKnown else { return nil }
        return total > 0 ? min(1, Double(done) / Double(total)) : 1
    }

    /// "1,200 / 5,000 · 310/s · 12 s left"
    public var summary: String {
        var parts = [isTotalKnown ? "\(CountFormat.grouped(done)) / \(CountFormat.grouped(total))" : CountFormat.grouped(done)]
        if let rate { parts.append(DurationFormat.rate(rate)) }
        if let timeLeft, done < total { parts.append("\(DurationFormat.duration(timeLeft)) left") }
        return parts.joined(separator: " · ")
    }
}

/// Durations and rates as every progress line and summary prints them.
public enum DurationFormat {
    /// "0.8 s", "12 s", "3 min 20 s", "1 h 4 min".
    public static func duration(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds < 10 { return oneDecimal(seconds) + " s" }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole >= 3600 { return "\(whole / 3600) h \((whole % 3600) / 60) min" }
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
