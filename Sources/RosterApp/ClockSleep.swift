/// Deadlines fixed when a timer is set, not when its task first runs: a test that advances a
/// manual clock right after an action then fires the timer whatever the task scheduling, and
/// a periodic timer does not drift.
enum ClockSleep {
    /// A sleep until `delay` from now (now being the moment this is called).
    static func sleeper(on clock: any Clock<Duration>, after delay: Duration) -> @Sendable () async throws -> Void {
        makeSleeper(clock, delay)
    }

    /// Sleeps until the next beat of `interval` counted from now, and returns which beat the
    /// clock has reached: a late wake-up skips beats instead of bursting through them.
    static func metronome(on clock: any Clock<Duration>, interval: Duration) -> @Sendable (Int) async throws -> Int {
        makeMetronome(clock, interval)
    }

    private static func makeSleeper<C: Clock>(_ clock: C, _ delay: Duration) -> @Sendable () async throws -> Void
    where C.Duration == Duration {
        let deadline = clock.now.advanced(by: delay)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    private static func makeMetronome<C: Clock>(_ clock: C, _ interval: Duration) -> @Sendable (Int) async throws -> Int
    where C.Duration == Duration {
        let start = clock.now
        return { lastBeat in
            let next = lastBeat + 1
            try await clock.sleep(until: start.advanced(by: interval * next), tolerance: nil)
            let reached = Int(start.duration(to: clock.now) / interval)
            return max(next, reached)
        }
    }
}
