import Foundation
@testable import RosterKit
import RosterKitTestSupport
import Testing

/// `FirstOutcome` and `OneShotTimer`: the pieces both deadlines (the client's requests,
/// roster-server's database calls) are made of.
@Suite("The first outcome and the one-shot timer")
struct FirstOutcomeTests {
    struct Late: Error {}

    @Test("an outcome given before the wait is the answer; a later one is dropped")
    func givenBefore() async throws {
        let outcome = FirstOutcome<Int>()
        #expect(outcome.give(.success(1)))
        #expect(!outcome.give(.failure(Late())))
        #expect(try await outcome.wait() == 1)
    }

    @Test("a waiting caller resumes once, with the first of many outcomes given at once")
    func givenWhileWaiting() async throws {
        let outcome = FirstOutcome<Int>()
        let waiter = Task { try await outcome.wait() }
        let firsts = await withTaskGroup(of: Bool.self) { group in
            for value in 0..<100 { group.addTask { outcome.give(.success(value)) } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(firsts == 1)
        let answer = try await waiter.value
        #expect((0..<100).contains(answer))
    }

    @Test("what runs before answering has run when the caller has the outcome")
    func beforeAnswering() async throws {
        for _ in 0..<200 {
            let outcome = FirstOutcome<Int>()
            let closed = Flag()
            let waiter = Task { () -> Bool in
                _ = try await outcome.wait()
                return closed.isSet
            }
            Task.detached { outcome.give(.success(1)) { closed.set() } }
            #expect(try await waiter.value)
        }
    }

    @Test("a failure given first is thrown")
    func failureFirst() async {
        let outcome = FirstOutcome<Int>()
        outcome.give(.failure(Late()))
        await #expect(throws: Late.self) { try await outcome.wait() }
    }

    @Test("a timer fires once then ends; a cancelled one ends without firing")
    func timer() async throws {
        let fired = FirstOutcome<Void>()
        let ended = FirstOutcome<Void>()
        _ = OneShotTimer(after: .milliseconds(20), fire: { fired.give(.success(())) }, ended: { ended.give(.success(())) })
        try await fired.wait()
        try await ended.wait()

        let early = FirstOutcome<Bool>()
        let cancelled = OneShotTimer(after: .seconds(3600), fire: { early.give(.success(true)) }, ended: { early.give(.success(false)) })
        cancelled.cancel()
        cancelled.cancel()
        #expect(try await early.wait() == false)
    }

    @Test("delays in nanoseconds: none below zero, a century at most")
    func nanoseconds() {
        #expect(MonotonicTime.nanoseconds(.milliseconds(1500)) == 1_500_000_000)
        #expect(MonotonicTime.nanoseconds(.zero) == 0)
        #expect(MonotonicTime.nanoseconds(.seconds(-5)) == 0)
        #expect(MonotonicTime.nanoseconds(.seconds(Int64.max)) == 100 * 365 * 86_400 * 1_000_000_000)
    }
}
