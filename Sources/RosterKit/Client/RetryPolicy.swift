/// When and how long to wait before sending a failed request again.
///
/// Exponential backoff with full jitter (a random wait between zero and the exponential
/// ceiling, so many clients do not retry in lockstep); a server's `Retry-After` on 429 and 503
/// replaces the backoff, up to `maximumRetryAfter`. Only idempotent methods are retried
/// (a POST might have created the user before the connection dropped), and only for
/// errors where trying again can help.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included. 1 means never retry.
    public var maximumAttempts: Int
    /// The ceiling of the first backoff; it doubles with each attempt.
    public var baseDelay: Duration
    /// The highest the ceiling grows.
    public var maximumDelay: Duration
    /// The longest wait a `Retry-After` can ask for; longer requests are cut to this.
    public var maximumRetryAfter: Duration
    /// Picks the actual wait in `0...ceiling`; uniform at random unless a test fixes it.
    public var jitter: @Sendable (Duration) -> Duration

    public init(
        maximumAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(250),
        maximumDelay: Duration = .seconds(8),
        maximumRetryAfter: Duration = .seconds(30),
        jitter: @escaping @Sendable (Duration) -> Duration = RetryPolicy.fullJitter
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.jitter = jitter
    }

    public static let `default` = RetryPolicy()
    public static let never = RetryPolicy(maximumAttempts: 1)

    @Sendable public static func fullJitter(_ ceiling: Duration) -> Duration {
        let nanoseconds = ceiling.nanoseconds
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...nanoseconds))
    }

    /// Whether attempt number `attempt` (1-based) that failed with `error` should be followed
    /// by another.
    public func shouldRetry(_ error: APIError, method: HTTPMethod, attempt: Int) -> Bool {
        attempt < maximumAttempts && method.isIdempotent && error.isRetryable
    }

    /// How long to wait after attempt number `attempt` (1-based) failed with `error`.
    public func delay(afterAttempt attempt: Int, error: APIError) -> Duration {
        if let retryAfter = error.retryAfter {
            return min(retryAfter, maximumRetryAfter)
        }
        return jitter(ceiling(afterAttempt: attempt))
    }

    /// `baseDelay * 2^(attempt-1)`, at most `maximumDelay`.
    public func ceiling(afterAttempt attempt: Int) -> Duration {
        var ceiling = baseDelay
        for _ in 1..<max(1, attempt) {
            ceiling *= 2
            if ceiling >= maximumDelay { return maximumDelay }
        }
        return min(ceiling, maximumDelay)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
