#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The `Date` header's value (RFC 9110's IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT"),
/// formatted at most once a second, when a response asks for it.
///
/// Why not Hummingbird's: its `DateCache` formats the date on a timer every second whether or
/// not a request comes, which woke the idle `roster` with its embedded server five times in
/// each 5 s and cost about 2 ms of CPU there (docs/benchmarks.md, "Issue 28, seventh pass").
final class HTTPDate: Sendable {
    private let cached = Mutex<(second: Int, text: String)>((-1, ""))

    /// Now's value.
    func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &time)
        let second = time.tv_sec
        return cached.withLock { cached in
            if cached.second != second { cached = (second, Self.format(secondsSince1970: second)) }
            return cached.text
        }
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
