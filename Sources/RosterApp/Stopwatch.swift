/// Time since a start, on any clock (a manual one in tests): what a bulk run measures its
/// rate, what is left and a server's `Retry-After` with.
struct Stopwatch: Sendable {
    let elapsed: @Sendable () -> Duration

    init(clock: any Clock<Duration>) {
        elapsed = Self.started(on: clock)
    }

    private static func started<C: Clock>(on clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
