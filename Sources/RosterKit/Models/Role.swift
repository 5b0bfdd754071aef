/// A user's role. The server may know roles this client does not: those decode as
/// `.unknown(raw)` so one unfamiliar value never fails a whole page.
public enum Role: Sendable, Hashable, Codable, CustomStringConvertible {
    case admin
    case member
    case viewer
    case unknown(String)

    /// The roles a person can pick in a form, in the order they are offered.
    public static let known: [Role] = [.admin, .member, .viewer]

    public init(rawValue: String) {
        switch rawValue {
        case "admin": self = .admin
        case "member": self = .member
        case "viewer": self = .viewer
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .admin: "admin"
        case .member: "member"
        case .viewer: "viewer"
        case .unknown(let raw): raw
        }
    }

    public var isKnown: Bool {
        if case .unknown = self { return false }
        return true
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
