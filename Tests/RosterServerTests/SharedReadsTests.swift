@testable import RosterServer
import NIOConcurrencyHelpers
import Testing

/// `SharedReads`: callers at once share reads, and each is answered by a read that started
/// after it asked.
@Suite("Shared reads: one round trip answers the callers that gathered, never a stale one")
struct SharedReadsTests {
    /// A value that moves when told, and a record of when each read started.
    final class Source: Sendable {
        let value = NIOLockedValueBox<UInt64>(0)
        let readsStarted = NIOLockedValueBox<Int>(0)

        func read() async throws -> UInt64 {
            let seen = value.withLockedValue { $0 }
            readsStarted.withLockedValue { $0 += 1 }
            // Long enough for callers to gather while it runs.
            try await Task.sleep(for: .milliseconds(20))
            return seen
        }
    }

    @Test("64 callers at once are answered by far fewer reads, all with the value")
    func gathers() async throws {
        let source = Source()
        source.value.withLockedValue { $0 = 7 }
        let reads = SharedReads { try await source.read() }
        let values = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for _ in 0..<64 { group.addTask { try await reads.value() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 7, count: 64))
        #expect(source.readsStarted.withLockedValue { $0 } <= 3)
    }

    @Test("a caller that asks while a read runs, after the value moved, gets the new value")
    func neverStale() async throws {
        let source = Source()
        let reads = SharedReads { try await source.read() }
        let first = Task { try await reads.value() }
        // Wait for the first read to be under way (it saw 0), then move the value and ask.
        while source.readsStarted.withLockedValue({ $0 }) == 0 { await Task.yield() }
        source.value.withLockedValue { $0 = 1 }
        let second = try await reads.value()
        #expect(try await first.value == 0)
        #expect(second == 1)
        #expect(source.readsStarted.withLockedValue { $0 } == 2)
    }

    @Test("a failed read fails the callers it answered; the next caller reads again")
    func failures() async throws {
        struct Refused: Error {}
        let attempts = NIOLockedValueBox(0)
        let reads = SharedReads<UInt64> {
            let attempt = attempts.withLockedValue { $0 += 1; return $0 }
            if attempt == 1 { throw Refused() }
            return 5
        }
        await #expect(throws: Refused.self) { try await reads.value() }
        #expect(try await reads.value() == 5)
    }
}
