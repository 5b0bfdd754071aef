import Foundation
@testable import RosterKit
import RosterKitTestSupport
import Testing

/// The deadline's wait on the real clock (`DeadlineWait`): a dispatch timer source that a cancel
/// removes, where `Task.sleep` left a timer to fire at the deadline long after the call ended.
@Suite("The deadline's wait on the real clock")
struct DeadlineWaitTests {
    @Test("a hanging call times out at its deadline on the real clock")
    func timesOut() async throws {
        let repository = RosterAPIDirectory(client: makeClient(ScriptedTransport(.hang), clock: ContinuousClock(), deadline: .milliseconds(150)))
        let start = ContinuousClock.now
        await #expect(throws: APIError.timedOut) { try await repository.user(id: "u1") }
        let waited = ContinuousClock.now - start
        // The deadline, not the hang, ended it: well short of forever on a loaded machine too.
        #expect(waited >= .milliseconds(150) && waited < Duration.seconds(60).scaledForTests)
    }

    @Test("cancelled waits end with CancellationError and none stays armed; one left alone fires")
    func cancelEndsThem() async throws {
        let waits = DeadlineWait()
        let tasks = (0..<200).map { _ in Task { try await waits.sleep(for: .seconds(3600), clock: ContinuousClock()) } }
        #expect(await eventually(within: .seconds(60)) { waits.armed.withLockedValue { $0 } == 200 })
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
        // Each timer's cancel handler has run: with Task.sleep, each would wait out its hour.
        #expect(await eventually(within: .seconds(60)) { waits.armed.withLockedValue { $0 } == 0 })
        try await waits.sleep(for: .milliseconds(20), clock: ContinuousClock())
    }

    @Test("a test clock is slept on as before")
    func testClock() async throws {
        let clock = ManualClock()
        let task = Task { try await DeadlineWait().sleep(for: .seconds(5), clock: clock) }
        #expect(await clock.waitForSleepers(1))
        await clock.advance(by: .seconds(5))
        try await task.value
    }
}
