import RosterKit

/// What the filter line (`f`) says, read: `status:suspended role:admin group:Sales team`.
/// A bare word that is a role or a status means that one; `group:` takes the words after it
/// up to the next `name:` word, so group names may hold spaces. Matching is case-insensitive.
public struct FilterLine: Sendable, Equatable {
    public var role: Role?
    public var status: Status?
    /// The group's name as typed; looked up on the server before the filter applies.
    public var groupName: String?

    /// Reads `text`, offering only what this directory knows; throws a sentence to show.
    public static func parse(_ text: String, traits: DirectoryTraits) throws(FilterLineError) -> FilterLine {
        var result = FilterLine()
        var groupWords: [Substring]?
        for word in text.split(whereSeparator: \.isWhitespace) {
            let lower = word.lowercased()
            if let colon = word.firstIndex(of: ":") {
                let key = word[..<colon].lowercased()
                let value = word[word.index(after: colon)...]
                if let groupWords { result.groupName = try Self.groupName(groupWords) }
                groupWords = nil
                switch key {
                case "role": result.role = try role(String(value).lowercased(), traits: traits)
                case "status": result.status = try status(String(value).lowercased(), traits: traits)
                case "group":
                    guard traits.hasGroups else { throw FilterLineError("This server has no groups to filter by.") }
                    groupWords = value.isEmpty ? [] : [value]
                default: throw FilterLineError("Unknown filter “\(key)”: use role:, status: or group:.")
                }
            } else if groupWords != nil {
                groupWords?.append(word)
            } else if traits.hasRoles, let known = Role.known.first(where: { $0.rawValue == lower }) {
                result.role = known
            } else if let known = traits.statuses.first(where: { $0.rawValue == lower }) {
                result.status = known
            } else {
                throw FilterLineError("“\(word)” is not a role or a status. Try \(examples(traits)).")
            }
        }
        if let groupWords { result.groupName = try Self.groupName(groupWords) }
        return result
    }

    private static func groupName(_ words: [Substring]) throws(FilterLineError) -> String {
        guard !words.isEmpty else { throw FilterLineError("Name the group after group:, e.g. group:Sales.") }
        return words.joined(separator: " ")
    }

    private static func role(_ value: String, traits: DirectoryTraits) throws(FilterLineError) -> Role? {
        guard traits.hasRoles else { throw FilterLineError("This server has no roles to filter by.") }
        if value.isEmpty || value == "any" { return nil }
        guard let role = Role.known.first(where: { $0.rawValue == value }) else {
            throw FilterLineError("role must be one of \(Role.known.map(\.rawValue).joined(separator: ", ")).")
        }
        return role
    }

    private static func status(_ value: String, traits: DirectoryTraits) throws(FilterLineError) -> Status? {
        if value.isEmpty || value == "any" { return nil }
        guard let status = traits.statuses.first(where: { $0.rawValue == value }) else {
            throw FilterLineError("status must be one of \(traits.statuses.map(\.rawValue).joined(separator: ", ")).")
        }
        return status
    }

    private static func examples(_ traits: DirectoryTraits) -> String {
        var examples = ["status:suspended"]
        if traits.hasRoles { examples.append("role:admin") }
        if traits.hasGroups { examples.append("group:Sales") }
        return examples.joined(separator: " ")
    }
}

/// Why the filter line could not be read, said to the person.
public struct FilterLineError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
