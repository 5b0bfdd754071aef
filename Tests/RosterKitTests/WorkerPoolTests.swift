import Foundation
import NIOConcurrencyHelpers
@testable import RosterKit
import Testing

/// `WorkerPool`, the default executor `roster` installs: tasks and sleeps on it, timers in
/// order and cancelled, a job that blocks its thread, and the timers' heap against a sorted list.
@Suite("Worker pool")
struct WorkerPoolTests {
    @Test func tasksPreferringThePoolRunOnItAndFinish() async {
        let pool = WorkerPool(maximumThreads: 3)
        let total = await withTaskGroup(of: Int.self) { group in
            for number in 1...200 { group.addTask(executorPreference: pool) { number } }
            return await group.reduce(0, +)
        }
        #expect(total == 200 * 201 / 2)
    }

    @Test func aSleepOnThePoolWakesAfterItsTimeAndACancelledOneAtOnce() async throws {
        let pool = WorkerPool(maximumThreads: 2)
        let clock = ContinuousClock()
        let slept = try await Task(executorPreference: pool) {
            try await clock.measure { try await Task.sleep(for: .milliseconds(40)) }
        }.value
        // No upper bound: under make test's load the wake-up may wait for a thread of the
        // test's own executor, which the sleep's timer may go through.
        #expect(slept >= .milliseconds(40))

        let long = Task(executorPreference: pool) { try await clock.measure { try await Task.sleep(for: .seconds(30)) } }
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }

    @Test func timersFireInDeadlineOrderAndACancelledOneNever() async throws {
        let pool = WorkerPool(maximumThreads: 2)
        let fired = NIOLockedValueBox<[Int]>([])
        for (delay, name) in [(60, 3), (20, 1), (40, 2)] {
            _ = pool.schedule(after: .milliseconds(delay)) { fired.withLockedValue { $0.append(name) } }
        }
        let cancelled = pool.schedule(after: .milliseconds(30)) { fired.withLockedValue { $0.append(99) } }
        #expect(pool.cancel(cancelled))
        #expect(!pool.cancel(cancelled), "a second cancel finds nothing")
        try await Task.sleep(for: .milliseconds(300))
        #expect(fired.withLockedValue { $0 } == [1, 2, 3])
    }

    @Test func aJobThatBlocksItsThreadLeavesAnotherThreadToTheJobItWaitsFor() async {
        let pool = WorkerPool(maximumThreads: 4)
        let released = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        pool.run {
            released.wait()
            done.signal()
        }
        pool.run { released.signal() }
        #expect(done.wait(timeout: .now() + 5) == .success)
    }

    @Test func oneShotTimersFireOrEndOnceWhenCancelled() async throws {
        let events = NIOLockedValueBox<[String]>([])
        let fires = OneShotTimer(after: .milliseconds(10), fire: { events.withLockedValue { $0.append("fired") } },
                                 ended: { events.withLockedValue { $0.append("ended after fire") } })
        let cancelled = OneShotTimer(after: .seconds(30), fire: { events.withLockedValue { $0.append("never") } },
                                     ended: { events.withLockedValue { $0.append("ended by cancel") } })
        cancelled.cancel()
        cancelled.cancel()
        try await Task.sleep(for: .milliseconds(200))
        _ = fires
        #expect(events.withLockedValue { $0.sorted() } == ["ended after fire", "ended by cancel", "fired"])
    }

    @Test func theHeapGivesTimersBackInDeadlineOrderWhateverIsRemoved() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var heap = TimerHeap<UInt64>()
            var expected: [(deadline: UInt64, id: UInt64)] = []
            for id in UInt64(1)...UInt64.random(in: 1...60, using: &generator) {
                let deadline = UInt64.random(in: 0...20, using: &generator)
                _ = heap.insert(id, at: deadline, id: id)
                expected.append((deadline, id))
            }
            for _ in 0..<expected.count / 3 {
                let victim = expected.remove(at: Int.random(in: 0..<expected.count, using: &generator))
                #expect(heap.remove(id: victim.id) == victim.id)
            }
            #expect(heap.remove(id: 10_000) == nil)
            let order = expected.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }.map(\.id)
            #expect(heap.popDue(at: 5) + heap.popDue(at: .max) == order)
            #expect(heap.count == 0)
        }
    }
}
