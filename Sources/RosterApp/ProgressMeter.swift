/// How far a long run is: done of total, the rate, and the time left, from time read off an
/// injected clock (a test's manual clock moves only when told, so rates are exact there).
///
/// A value: the model keeps one, records each step with the time of the step, and the view
/// reads it. The rate is the average over the run so far, steadier than the last step's.
public struct ProgressMeter: Sendable, Equatable {
    /// How many there are; nil while unknown (before an export's first page).
    public var total: Int?
    public private(set) var done = 0
    /// Time since the run started, as of the last step.
    public private(set) var elapsed: Duration = .zero

    public init(total: Int? = nil) {
        self.total = total
    }

    /// `count` more are done, `elapsed` after the start.
    public mutating func advance(by count: Int, at elapsed: Duration) {
        done += count
        self.elapsed = elapsed
    }

    /// Done of total, 0…1; nil while the total is unknown.
    public var fraction: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, Double(done) / Double(total))
    }

    /// Per second; nil until something is done and some time has passed.
    public var rate: Double? {
        let seconds = elapsed.secondsValue
        guard done > 0, seconds > 0 else { return nil }
        return Double(done) / seconds
    }

    /// At the average rate so far; nil while it cannot be told.
    public var remaining: Duration? {
        guard let total, let rate, rate > 0 else { return nil }
        let left = max(0, total - done)
        return .milliseconds(Int((Double(left) / rate * 1000).rounded()))
    }

    /// "1,200 / 5,000 · 310/s · 12 s left"
    public var summary: String {
        var parts = [total.map { "\(CountFormat.grouped(done)) / \(CountFormat.grouped($0))" } ?? CountFormat.grouped(done)]
        if let rate { parts.append(rate >= 10 ? "\(Int(rate.rounded()))/s" : "\((rate * 10).rounded() / 10)/s") }
        if let remaining, (total ?? 0) > done { parts.append("\(Self.words(remaining)) left") }
        return parts.joined(separator: " · ")
    }

    /// "12 s", "3 min 5 s", "1 h 4 min".
    static func words(_ duration: Duration) -> String {
        let seconds = Int(duration.secondsValue.rounded(.up))
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \((seconds % 3600) / 60) min"
    }
}

extension Duration {
    var secondsValue: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
