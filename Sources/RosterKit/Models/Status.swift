/// A user's account status. Like `Role`, an unfamiliar value decodes as `.unknown(raw)`.
public enum Status: Sendable, Hashable, Codable, CustomStringConvertible {
    case active
    case suspended
    case invited
    case unknown(String)

    /// The statuses a person can pick in a form, in the order they are offered.
    public static let known: [Status] = [.active, .suspended, .invited]

    public init(rawValue: String) {
        switch rawValue {
        case "active": self = .active
        case "suspended": self = .suspended
        case "invited": self = .invited
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .active: "active"
        case .suspended: "suspended"
        case .invited: "invited"
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
