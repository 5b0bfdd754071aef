import RosterKitTestSupport
import Testing
@testable import RosterApp

@Suite("Activity", .timeLimit(.minutes(5)))
@MainActor
struct ActivityTests {
    let clock = ManualClock()
    let activity: Activity

    init() {
        activity = Activity(clock: clock)
    }

    @Test func isBusyExactlyWhileALoadRuns() async {
        let gate = CallGate()
        #expect(!activity.isBusy)
        _ = activity.startLoad { await gate.pass() }
        #expect(activity.isBusy)
        gate.open()
        await activity.waitForLoads()
        #expect(!activity.isBusy)
    }

    @Test func theSpinnerTicksTenTimesASecondWhileBusy() async {
        let gate = CallGate()
        _ = activity.startLoad { await gate.pass() }
        #expect(activity.spinnerFrame == 0)
        await clock.advance(by: .milliseconds(100))
        #expect(await eventuallyAfterYields { activity.spinnerFrame == 1 })
        await clock.advance(by: .milliseconds(900))
        #expect(await eventuallyAfterYields { activity.spinnerFrame == 10 })
        gate.open()
        await activity.waitForLoads()
    }

    @Test func nothingTicksWhileIdle() async {
        let gate = CallGate()
        _ = activity.startLoad { await gate.pass() }
        await clock.advance(by: .milliseconds(300))
        #expect(await eventuallyAfterYields { activity.spinnerFrame == 3 })
        gate.open()
        await activity.waitForLoads()
        // No timer is left on the clock, so nothing can wake the view while idle.
        #expect(clock.sleeperCount == 0)
        let sleeps = clock.requestedSleeps.count
        await clock.advance(by: .seconds(5))
        #expect(activity.spinnerFrame == 3)
        #expect(clock.requestedSleeps.count == sleeps)
    }

    @Test func cancellingALoadStopsTheSpinnerEvenIfTheCallIgnoresIt() async {
        let gate = CallGate()
        var finished = false
        let load = activity.startLoad {
            await gate.pass()
            finished = true
        }
        load.cancel()
        #expect(!activity.isBusy)
        #expect(clock.sleeperCount == 0)
        // The call still returns later; waiting for loads includes it.
        gate.open()
        await activity.waitForLoads()
        #expect(finished)
    }

    @Test func aTimerFiresWhenItsTimeComesAndNotBefore() async {
        var fired = false
        _ = activity.schedule(after: .milliseconds(200)) { fired = true }
        await clock.advance(by: .milliseconds(199))
        #expect(!fired)
        await clock.advance(by: .milliseconds(1))
        await activity.waitForIdle()
        #expect(fired)
        #expect(!activity.isBusy) // a timer is not a load
    }

    @Test func aCancelledTimerNeverFires() async {
        var fired = false
        let timer = activity.schedule(after: .milliseconds(200)) { fired = true }
        timer.cancel()
        await clock.advance(by: .seconds(1))
        await activity.waitForIdle()
        #expect(!fired)
    }

    @Test func waitingForLoadsDoesNotWaitForTimers() async {
        var fired = false
        _ = activity.schedule(after: .seconds(1)) { fired = true }
        await activity.waitForLoads()
        #expect(!fired)
        await clock.advance(by: .seconds(1))
        await activity.waitForIdle()
        #expect(fired)
    }
}
