import Foundation
import RosterKit

/// Wire models with anything in them, for property tests on either side of the wire: any
/// Unicode in every string (`AnyText`), unknown roles and statuses, any millisecond of years 1
/// to 9999 (read back from its own text, so the wire's precision is the value's).
extension User {
    public static func arbitrary(using random: inout some RandomNumberGenerator) -> User {
        User(id: AnyText.string(using: &random), name: AnyText.string(using: &random), email: AnyText.string(using: &random),
             role: .arbitrary(using: &random), status: .arbitrary(using: &random),
             createdAt: Date.arbitraryTimestamp(using: &random), updatedAt: Date.arbitraryTimestamp(using: &random),
             groups: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                 GroupReference(id: AnyText.string(using: &random), name: AnyText.string(using: &random))
             })
    }
}

extension Role {
    public static func arbitrary(using random: inout some RandomNumberGenerator) -> Role {
        Bool.random(using: &random) ? known.randomElement(using: &random)! : Role(rawValue: AnyText.string(using: &random))
    }
}

extension Status {
    public static func arbitrary(using random: inout some RandomNumberGenerator) -> Status {
        Bool.random(using: &random) ? known.randomElement(using: &random)! : Status(rawValue: AnyText.string(using: &random))
    }
}

extension Date {
    public static func arbitraryTimestamp(using random: inout some RandomNumberGenerator) -> Date {
        let milliseconds = Int64.random(in: -62_135_596_800_000 ... 253_402_300_799_999, using: &random)
        return ISO8601Timestamp.parse(ISO8601Timestamp.format(Date(timeIntervalSince1970: Double(milliseconds) / 1000)))!
    }
}
