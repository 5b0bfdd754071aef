import FoundationEssentials
import RosterKit

/// `roster-bench --timestamps [ROUNDS]` (`make bench-timestamps`): RosterKit's hand-written
/// `ISO8601Timestamp` against FoundationEssentials' `Date.ISO8601FormatStyle`, parsing and
/// formatting the same 100,000 timestamps as the wire carries them, rounds interleaved, the
/// median of each in nanoseconds a call. Then what each accepts of the forms the wire contract
/// allows (/work/shared/DESIGN.md: fractional seconds or none, `Z` or an offset), so a faster
/// one that refuses some is not taken for the same thing.
enum TimestampBench {
    static let count = 100_000

    static func run(_ arguments: [String]) {
        let rounds = arguments.first.flatMap(Int.init) ?? 9
        // Dates to the millisecond over 2001–2033, as a page of users carries them.
        var generator = SeededGenerator(seed: 27)
        let dates = (0..<count).map { _ in
            Date(timeIntervalSince1970: Double(978_307_200_000 + Int64(generator.next() % 1_000_000_000_000)) / 1000)
        }
        let texts = dates.map(ISO8601Timestamp.format)
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let withoutFraction = Date.ISO8601FormatStyle()

        // Where the two differ, before anything is timed: the same text, and the same instant
        // to the microsecond, or it is counted and the first one shown.
        var formatDiffers = 0, parseDiffers = 0
        for (date, text) in zip(dates, texts) {
            let theirs = withFraction.format(date)
            if theirs != text {
                if formatDiffers == 0 { print("format differs, e.g. \(date.timeIntervalSince1970): ISO8601Timestamp \(text), ISO8601FormatStyle \(theirs)") }
                formatDiffers += 1
            }
            let ours = ISO8601Timestamp.parse(text)!, parsed = try! withFraction.parse(text)
            if abs(ours.timeIntervalSince(parsed)) >= 0.000_001 {
                if parseDiffers == 0 { print("parse differs on \(text): \(ours.timeIntervalSince1970) against \(parsed.timeIntervalSince1970)") }
                parseDiffers += 1
            }
        }
        print("of \(count) dates to the millisecond: format differs on \(formatDiffers), parse on \(parseDiffers)")

        var times: [String: [Double]] = [:]
        for _ in 0..<rounds {
            times["parse, ISO8601Timestamp", default: []].append(nanosecondsPerCall {
                var sum = 0.0
                for text in texts { sum += ISO8601Timestamp.parse(text)!.timeIntervalSinceReferenceDate }
                return sum
            })
            times["parse, ISO8601FormatStyle", default: []].append(nanosecondsPerCall {
                var sum = 0.0
                for text in texts { sum += try! withFraction.parse(text).timeIntervalSinceReferenceDate }
                return sum
            })
            times["format, ISO8601Timestamp", default: []].append(nanosecondsPerCall {
                var sum = 0.0
                for date in dates { sum += Double(ISO8601Timestamp.format(date).utf8.count) }
                return sum
            })
            times["format, ISO8601FormatStyle", default: []].append(nanosecondsPerCall {
                var sum = 0.0
                for date in dates { sum += Double(withFraction.format(date).utf8.count) }
                return sum
            })
            // What the server writes: into the page's byte buffer, no String made.
            times["append to a buffer, ISO8601Timestamp", default: []].append(nanosecondsPerCall {
                var buffer: [UInt8] = []
                buffer.reserveCapacity(count * 24)
                for date in dates { ISO8601Timestamp.append(date, to: &buffer) }
                return Double(buffer.count)
            })
        }
        print("\(count) timestamps a round, \(rounds) rounds interleaved; median ns a call (min–max)")
        for name in times.keys.sorted() {
            let sorted = times[name]!.sorted()
            print("\(padded(name, 40)) \(fixed(sorted[sorted.count / 2]))  (\(fixed(sorted.first!))–\(fixed(sorted.last!)))")
        }
        for operation in ["parse", "format"] {
            let ours = median(times["\(operation), ISO8601Timestamp"]!), theirs = median(times["\(operation), ISO8601FormatStyle"]!)
            print("\(operation): ISO8601FormatStyle takes \(fixed(theirs / ours))x ISO8601Timestamp's time")
        }

        print("accepted (ISO8601Timestamp / ISO8601FormatStyle with fractional seconds / without):")
        for text in ["2025-11-21T09:30:00.250Z", "2025-11-21T09:30:00Z", "2025-11-21T09:30:00.123456Z",
                     "2025-11-21T10:30:00+01:00", "2025-11-21T04:00:00-0530", "2025-11-21T10:30:00.5+01:00",
                     "2025-11-21t09:30:00z", "2023-02-29T00:00:00Z", "2025-11-21T09:30:00"] {
            func mark(_ accepted: Bool) -> String { accepted ? "yes" : "no " }
            print("  \(padded(text, 30)) \(mark(ISO8601Timestamp.parse(text) != nil)) / "
                + "\(mark((try? withFraction.parse(text)) != nil)) / \(mark((try? withoutFraction.parse(text)) != nil))")
        }
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// One decimal place.
    private static func fixed(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// Runs `body` (all `count` calls) once and returns nanoseconds a call; the sum it returns
    /// is kept so the work cannot be optimised away.
    private static func nanosecondsPerCall(_ body: () -> Double) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let sum = body()
        let elapsed = clock.now - start
        if sum.isNaN { print("unreachable") }
        return elapsed.milliseconds * 1e6 / Double(count)
    }
}
