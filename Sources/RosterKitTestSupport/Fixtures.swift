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
        return fixture(
            id: String(format: "user-%07d", number),
            name: String(format: "User %07d", number),
            email: String(format: "user%07d@example.com", number),
            role: roles[number % roles.count],
            status: statuses[number % statuses.count],
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60))
    }
}
