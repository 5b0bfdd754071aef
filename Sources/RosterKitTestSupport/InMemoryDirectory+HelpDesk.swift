import RosterKit

/// The help desk's actions in memory: a reset keeps the password in `passwords`; a user whose
/// status is "locked" (as LDAP shows a lockout) is unlocked to active.
extension InMemoryDirectory {
    public static let lockedStatus = Status.unknown("locked")

    public func resetPassword(id: String, to password: String, mustChange: Bool) async throws {
        calls.append(.resetPassword(id: id, mustChange: mustChange))
        try await prepare(.resetPassword)
        guard users[id] != nil else { throw Self.notFound }
        guard password.count >= 8 else {
            throw APIError.validationFailed(ErrorBody(code: "password_too_short", message: "The password is too short: 8 characters at least."))
        }
        passwords[id] = (password, mustChange)
    }

    public func unlock(id: String) async throws -> Bool {
        calls.append(.unlock(id: id))
        try await prepare(.unlock)
        guard let user = users[id] else { throw Self.notFound }
        guard user.status == Self.lockedStatus else { return false }
        users[id]?.status = .active
        return true
    }
}
