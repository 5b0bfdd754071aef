import Foundation

/// Times are stored as whole milliseconds since 1970: the precision the wire format writes,
/// so a stored time and the time a client reads back are the same value.
enum Milliseconds {
    static func of(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
