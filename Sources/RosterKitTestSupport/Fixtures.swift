import Foundation
import RosterKit

extension User {
    /// A user for tests; every field can be overridden.
    public static func fixture(
        id: String = "user-000001", name: String = "Ana Silva", email: String = "ana@example.com",
        role: Role = .member, status: Status = .active,
        createdAt: Date = Date(timeIntervalSince1970: 1_700_000_000),
        updatedAt: Date = Date(timeIntervalSince1970: 1_700_000_000)
    ) -> User {
        User(id: id, name: name, email: email, role: role, status: status, createdAt: createdAt, updatedAt: updatedAt)
    }

    /// The `number`th generated user: ids and names sort in number order.
    public static func fixture(number: Int) -> User {
        let roles: [Role] = [.member, .viewer, .admin]
        let statuses: [Status] = [.active, .invited, .suspended]
        let digits = zeroPadded(number, width: 7)
        return fixture(
            id: "user-" + digits,
            name: "User " + digits,
            email: "user" + digits + "@example.com",
            role: roles[number % roles.count],
            status: statuses[number % statuses.count],
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60))
    }

    /// `String(format: "%0*d")` without Foundation's formatter: scale tests make a million of these.
    static func zeroPadded(_ number: Int, width: Int) -> String {
        guard number >= 0 else { return String(format: "%0\(width)d", number) }
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
