/// A new password for a bulk reset, and whether it must be changed at the next logon. It is
/// never said: its description, and so any log line or error that prints an action, hides it.
public struct PasswordReset: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    let password: String
    public let mustChange: Bool

    public init(password: String, mustChange: Bool) {
        self.password = password
        self.mustChange = mustChange
    }

    public var description: String { mustChange ? "PasswordReset(hidden, must change)" : "PasswordReset(hidden)" }
    public var debugDescription: String { description }
}
