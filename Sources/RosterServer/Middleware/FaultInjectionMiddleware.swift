import Hummingbird
import Synchronization

/// Makes calls under `/api/v1/users` and `/api/v1/groups` slow or failing on purpose, so a
/// demo or a test can watch the client's retries, error dialogs and a bulk run's progress
/// against the real server. Installed only when a fault is configured.
struct FaultInjectionMiddleware<Context: RequestContext>: RouterMiddleware {
    let faults: FaultInjection
    private let remainingFailures: FailureBudget

    init(faults: FaultInjection) {
        self.faults = faults
        self.remainingFailures = FailureBudget(faults.failFirst)
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard Self.isFaulted(path) else { return try await next(request, context) }
        if faults.latency > .zero {
            try await Task.sleep(for: faults.latency)
        }
        if remainingFailures.take() || (faults.failRate > 0 && Double.random(in: 0..<1) < faults.failRate) {
            throw APIProblem.injectedUnavailable
        }
        return try await next(request, context)
    }

    /// The users and groups calls; health and the OpenAPI document always answer.
    static func isFaulted(_ path: String) -> Bool {
        for prefix in ["/api/v1/users", "/api/v1/groups"] where path == prefix || path.hasPrefix(prefix + "/") {
            return true
        }
        return false
    }
}

/// The first-N-calls-fail counter, shared by every connection.
private final class FailureBudget: Sendable {
    private let remaining: Atomic<Int>

    init(_ count: Int) {
        remaining = Atomic(max(0, count))
    }

    /// True while failures remain (and uses one up).
    func take() -> Bool {
        var current = remaining.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = remaining.compareExchange(
                expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
