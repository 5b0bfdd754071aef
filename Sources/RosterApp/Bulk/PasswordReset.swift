/// A new password for a bulk reset, and whether it must be changed at the next logon. It is
/// never said: its description, and so any log line or error that prints an action, hides it.
public struct PasswordReset: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    let password: String
    public let mustChange: Bool
    /// Made by `GeneratedPassword` rather than typed: shown once after the reset landed.
    public let isGenerated: Bool

    public init(password: String, mustChange: Bool, isGenerated: Bool = false) {
        self.password = password
        self.mustChange = mustChange
        self.isGenerated = isGenerated
    }

    public var description: String { mustChange ? "PasswordReset(hidden, must change)" : "PasswordReset(hidden)" }
    public var debugDescription: String { description }
}
