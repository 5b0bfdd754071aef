import RosterKitTestSupport
import Testing

@Suite("The tests' time scale: ROSTER_TEST_TIME_SCALE stretches waits and bounds, nothing else")
struct TestTimeScaleTests {
    @Test("a positive number is taken; unset, empty, garbage, zero, negative and infinite are 1")
    func parsing() {
        #expect(TestTimeScale.parse("5") == 5)
        #expect(TestTimeScale.parse("2.5") == 2.5)
        for text in [nil, "", "fast", "0", "-3", "inf", "nan"] as [String?] {
            #expect(TestTimeScale.parse(text) == 1, "\(text ?? "nil")")
        }
    }

    @Test("a duration is multiplied by the process's factor")
    func scaling() {
        #expect(Duration.seconds(2).scaledForTests == .seconds(2) * TestTimeScale.factor)
    }
}
