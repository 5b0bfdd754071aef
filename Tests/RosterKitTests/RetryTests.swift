import Foundation
import Testing
import RosterKit
import RosterKitTestSupport

@Suite("Retrying")
struct RetryTests {
    static let okUser = TransportResponse.text(envelope(sampleUserJSON))
    static let unavailable = TransportResponse.error(503, code: "unavailable", message: "Down for a moment.")

    /// Starts `operation`, waits until it sleeps on `clock` (its deadline plus `extraSleepers`),
    /// and returns the task.
    func start<T: Sendable>(
        _ clock: ManualClock, sleepers: Int, _ operation: @escaping @Sendable () async throws -> T
    ) async -> Task<T, any Error> {
        let task = Task { try await operation() }
        #expect(await clock.waitForSleepers(sleepers))
        return task
    }

    /// The waits between attempts: every sleep but the deadline's own timer (30 s here).
    func backoffs(_ clock: ManualClock) -> [Duration] {
        var sleeps = clock.requestedSleeps
        if let deadline = sleeps.firstIndex(of: .seconds(30)) { sleeps.remove(at: deadline) }
        return sleeps
    }

    @Test func aRetryableFailureIsRetriedUntilItSucceeds() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.respond(Self.unavailable), .respond(Self.unavailable), .respond(Self.okUser)])
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock))
        let task = await start(clock, sleepers: 2) { try await repository.user(id: "u1") }
        #expect(transport.requestCount == 1)
        await clock.advance(by: .milliseconds(250))
        #expect(await clock.waitForSleepers(2))
        #expect(transport.requestCount == 2)
        await clock.advance(by: .milliseconds(500))
        #expect(try await task.value == sampleUser)
        #expect(transport.requestCount == 3)
        // The exponential ceilings (the test's jitter takes the ceiling).
        #expect(backoffs(clock) == [.milliseconds(250), .milliseconds(500)])
    }

    @Test func afterTheLastAttemptTheErrorIsThrown() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(.respond(Self.unavailable))
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock))
        let task = await start(clock, sleepers: 2) { try await repository.user(id: "u1") }
        // Both backoffs (250 ms, then 500 ms) end within this second.
        await clock.advance(by: .seconds(1))
        await #expect(throws: APIError.serviceUnavailable(retryAfter: nil, ErrorBody(code: "unavailable", message: "Down for a moment."))) {
            try await task.value
        }
        #expect(transport.requestCount == 3)
    }

    @Test func aListStoppedForRunningPastTheServersBudgetIsNotSentAgain() async throws {
        let tooSlow = TransportResponse.error(503, code: "query_too_slow", message: "Type more characters.")
        let transport = ScriptedTransport([.respond(tooSlow), .respond(Self.okUser)])
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: ManualClock()))
        do {
            _ = try await repository.listUsers(UserQuery(search: "q"))
            Issue.record("a query_too_slow answer must be the error")
        } catch let error as APIError {
            #expect(error.isQueryTooSlow)
            #expect(!error.isRetryable)
            #expect(error.recoverySuggestion == "Type more characters, or narrow the list with a filter.")
        }
        #expect(transport.requestCount == 1)
        #expect(APIError.serviceUnavailable(retryAfter: nil, ErrorBody(code: "unavailable", message: "Down.")).isRetryable)
    }

    @Test func retryAfterReplacesTheBackoff() async throws {
        let clock = ManualClock()
        let limited = TransportResponse.error(429, code: "slow_down", message: "Too many.", headers: ["Retry-After": "5"])
        let transport = ScriptedTransport([.respond(limited), .respond(Self.okUser)])
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock))
        let task = await start(clock, sleepers: 2) { try await repository.user(id: "u1") }
        await clock.advance(by: .milliseconds(4999))
        #expect(transport.requestCount == 1, "must wait the whole Retry-After")
        await clock.advance(by: .milliseconds(1))
        #expect(try await task.value == sampleUser)
        #expect(backoffs(clock) == [.seconds(5)])
    }

    @Test func aLongRetryAfterIsCappedAtTheMaximum() async throws {
        let clock = ManualClock()
        let unavailable = TransportResponse.error(503, code: "down", message: "Down.", headers: ["Retry-After": "3600"])
        let transport = ScriptedTransport([.respond(unavailable), .respond(Self.okUser)])
        let policy = RetryPolicy(maximumRetryAfter: .seconds(10), jitter: { $0 })
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock, retry: policy))
        let task = await start(clock, sleepers: 2) { try await repository.user(id: "u1") }
        await clock.advance(by: .seconds(10))
        #expect(try await task.value == sampleUser)
        #expect(backoffs(clock) == [.seconds(10)])
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422])
    func aClientErrorIsNeverRetried(status: Int) async throws {
        let transport = ScriptedTransport(.respond(.error(status, code: "c", message: "m")))
        let repository = RosterAPIDirectory(client: makeClient(transport))
        await #expect(throws: APIError.self) { try await repository.user(id: "u1") }
        #expect(transport.requestCount == 1)
    }

    @Test func putAndDeleteAreRetried() async throws {
        for method in [HTTPMethod.put, .delete] {
            let clock = ManualClock()
            let transport = ScriptedTransport([.fail(APIError.connectionLost), .respond(Self.okUser)])
            let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock))
            let task = await start(clock, sleepers: 2) {
                if method == .put {
                    #expect(try await repository.updateUser(id: "u1", with: UserDraft(name: "Ana", email: "ana@example.com")) == sampleUser)
                } else {
                    try await repository.deleteUser(id: "u1")
                }
            }
            await clock.advance(by: .milliseconds(250))
            try await task.value
            #expect(transport.requests.map(\.method) == [method, method])
        }
    }

    @Test func cancellationDuringABackoffEndsAtOnce() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(.respond(Self.unavailable))
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock))
        let task = await start(clock, sleepers: 2) { try await repository.user(id: "u1") }
        task.cancel()
        // No time passes on the clock: the backoff must end because of the cancellation alone.
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(transport.requestCount == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellationDuringARequestIsACancellationErrorNotAUserFacingOne() async throws {
        let transport = ScriptedTransport(.hang)
        let repository = RosterAPIDirectory(client: makeClient(transport))
        let task = Task { try await repository.user(id: "u1") }
        while transport.requestCount == 0 { await Task.yield() }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func backoffCeilingsGrowExponentiallyUpToTheMaximum() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(1))
        #expect((1...6).map { policy.ceiling(afterAttempt: $0) }
            == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
    }

    @Test func fullJitterStaysWithinTheCeilingAndSpreads() {
        let samples = (0..<2000).map { _ in RetryPolicy.fullJitter(.seconds(1)) }
        #expect(samples.allSatisfy { $0 >= .zero && $0 <= .seconds(1) })
        #expect(samples.contains { $0 < .milliseconds(100) })
        #expect(samples.contains { $0 > .milliseconds(900) })
    }
}

@Suite("Deadline")
struct DeadlineTests {
    @Test func aHangingServerTimesOutAtTheDeadline() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(.hang)
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock, deadline: .seconds(5)))
        let task = Task { try await repository.user(id: "u1") }
        #expect(await clock.waitForSleepers(1))
        await clock.advance(by: .milliseconds(4999))
        #expect(clock.sleeperCount == 1, "still waiting just before the deadline")
        await clock.advance(by: .milliseconds(1))
        await #expect(throws: APIError.timedOut) { try await task.value }
        #expect(transport.requestCount == 1)
    }

    @Test func theDeadlineCoversRetriesAndReportsTheRealFailure() async throws {
        let clock = ManualClock()
        let unavailable = TransportResponse.error(503, code: "down", message: "Down.", headers: ["Retry-After": "20"])
        let transport = ScriptedTransport(.respond(unavailable))
        let repository = RosterAPIDirectory(client: makeClient(transport, clock: clock, deadline: .seconds(30)))
        let task = Task { try await repository.user(id: "u1") }
        #expect(await clock.waitForSleepers(2))
        await clock.advance(by: .seconds(20))
        // A second wait of 20 s would end past the deadline: the 503 itself is reported.
        let result = await task.result
        #expect(throws: APIError.serviceUnavailable(retryAfter: .seconds(20), ErrorBody(code: "down", message: "Down."))) { try result.get() }
        #expect(transport.requestCount == 2)
    }

    @Test func aFastAnswerIsNotHeldByTheDeadline() async throws {
        let clock = ManualClock()
        let repository = RosterAPIDirectory(client: makeClient(ScriptedTransport(.respond(RetryTests.okUser)), clock: clock))
        #expect(try await repository.user(id: "u1") == sampleUser)
        #expect(clock.sleeperCount == 0, "the deadline's timer is cancelled with the call")
    }
}
