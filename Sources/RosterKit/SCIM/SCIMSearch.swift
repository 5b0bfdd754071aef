/// How a search box's text becomes a SCIM filter, and what to fall back to when the service
/// refuses it: `co` (contains) where it can, else `sw` (starts with), else `eq` (exact).
public enum SCIMSearchMode: Int, Sendable, Comparable, CaseIterable {
    case contains, startsWith, equals, unavailable

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The next weaker mode, after the service refused this one with `invalidFilter`.
    public var fallback: SCIMSearchMode {
        SCIMSearchMode(rawValue: rawValue + 1) ?? .unavailable
    }

    /// What search means on this service, for the status line.
    public var summary: String {
        switch self {
        case .contains: "search finds user names, names and emails containing the text"
        case .startsWith: "this server searches by prefix: user names, names and emails starting with the text"
        case .equals: "this server searches exact values only: a whole user name or email"
        case .unavailable: "this server cannot search"
        }
    }

    /// The filter for `text`, or nil when this mode cannot search.
    public func filter(for text: String) -> String? {
        let value = SCIMFilter.quoted(text)
        switch self {
        case .contains: return "userName co \(value) or displayName co \(value) or emails co \(value)"
        case .startsWith: return "userName sw \(value) or displayName sw \(value) or emails sw \(value)"
        case .equals: return "userName eq \(value) or emails eq \(value)"
        case .unavailable: return nil
        }
    }

    /// The filter finding groups by `displayName` in this mode, or nil when it cannot search.
    public func groupFilter(for text: String) -> String? {
        let value = SCIMFilter.quoted(text)
        switch self {
        case .contains: return "displayName co \(value)"
        case .startsWith: return "displayName sw \(value)"
        case .equals: return "displayName eq \(value)"
        case .unavailable: return nil
        }
    }
}

enum SCIMFilter {
    /// A SCIM filter string literal: JSON string syntax, control characters dropped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Joins filters with `and`, each in parentheses.
    static func all(_ filters: [String]) -> String? {
        switch filters.count {
        case 0: nil
        case 1: filters[0]
        default: filters.map { "(\($0))" }.joined(separator: " and ")
        }
    }
}
