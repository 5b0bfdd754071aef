/// When and how long to wait before sending a failed request again.
///
/// Exponential backoff with full jitter (a random wait between zero and the exponential
/// ceiling, so many clients do not retry in lockstep); a server's `Retry-After` on 429 and 503
/// replaces the backoff, up to `maximumRetryAfter`. Only errors where trying again can help
/// are retried, and only requests that cannot take effect twice (`mayResend`).
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

    /// Whether attempt number `attempt` (1-based) of `request` that failed with `error` should
    /// be followed by another. `keysReplayed`: the server is known to honour `Idempotency-Key`.
    public func shouldRetry(_ error: APIError, request: TransportRequest, keysReplayed: Bool, attempt: Int) -> Bool {
        attempt < maximumAttempts && error.isRetryable && Self.mayResend(request, after: error, keysReplayed: keysReplayed)
    }

    /// Whether sending `request` again after `error` cannot apply it twice: an idempotent
    /// method (GET, HEAD, PUT, DELETE); a request carrying an `Idempotency-Key` that the server
    /// is known to replay; or any request that never reached the server (no connection could
    /// be made), or that the server turned away unread (429: RFC 6585 says the request was
    /// not processed; the wait is its `Retry-After`). A POST or PATCH whose answer was lost is
    /// never sent again blindly.
    public static func mayResend(_ request: TransportRequest, after error: APIError, keysReplayed: Bool) -> Bool {
        if request.method.isIdempotent { return true }
        if keysReplayed, request.headers[IdempotencyKey.header] != nil { return true }
        switch error {
        case .offline, .cannotConnect, .rateLimited: return true
        default: return false
        }
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
