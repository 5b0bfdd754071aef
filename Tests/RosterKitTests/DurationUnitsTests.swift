import RosterKit
import Testing

/// `Duration` as numbers (Sources/RosterKit/Coding/DurationUnits.swift), which clocks, libpq's
/// statement timeout, the logs and the benches all read.
@Suite("Duration as numbers")
struct DurationUnitsTests {
    @Test func wholeNanosecondsSecondsAndMilliseconds() {
        let duration = Duration.seconds(2) + .nanoseconds(345_678_901) + Duration(secondsComponent: 0, attosecondsComponent: 999)
        #expect(duration.nanoseconds == 2_345_678_901)
        #expect(abs(duration.seconds - 2.345678901) < 1e-12)
        #expect(abs(duration.milliseconds - 2345.678901) < 1e-9)
        #expect(Duration.milliseconds(-1500).nanoseconds == -1_500_000_000)
        #expect(Duration.zero.nanoseconds == 0 && Duration.zero.milliseconds == 0)
    }

    @Test func millisecondsWithOneDecimalRoundToTheNearestTenth() {
        #expect(Duration.microseconds(12_345).millisecondsText == "12.3")
        #expect(Duration.microseconds(12_350).millisecondsText == "12.4")
        #expect(Duration.seconds(1).millisecondsText == "1000.0")
        #expect(Duration.zero.millisecondsText == "0.0")
    }
}
