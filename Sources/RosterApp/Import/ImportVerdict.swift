import RosterCSV
import RosterJournal
import RosterKit

/// What a good row of an import would do, once compared with the directory: the preview's
/// three lists.
public enum ImportVerdict: Sendable, Equatable {
    /// No user has this email (or login): a create.
    case new
    /// The user exists and the file changes some of what it maps: each field before → after,
    /// and the groups the user is not in yet.
    case changed(User, fields: [UserFields.Difference], addGroups: [String])
    /// The user exists and already has everything the file says.
    case unchanged(User)

    public var user: User? {
        switch self {
        case .new: nil
        case .changed(let user, _, _), .unchanged(let user): user
        }
    }

    /// "name: Ana → Ana Silva · status: active → suspended · groups: + Sales"
    public var changeText: String {
        guard case .changed(_, let fields, let groups) = self else { return "" }
        var parts = fields.map { "\($0.name): \($0.before) → \($0.after)" }
        if !groups.isEmpty { parts.append("groups: + " + groups.joined(separator: ", ")) }
        return parts.joined(separator: " · ")
    }

    /// Compares `row` with the user it matched (nil: none). Only the fields the file maps and
    /// fills are weighed; groups only add (a file never takes a user out of a group).
    static func of(_ row: ImportRow, existing: User?) -> ImportVerdict {
        guard let existing else { return .new }
        let draft = row.applied(to: existing)
        let after = ChangeRecorder.Write.update(existing, to: draft).after?.user ?? existing
        let fields = UserFields.differences(from: existing, to: after)
        let member = Set(existing.groups.map { $0.name.lowercased() })
        var seen = Set<String>()
        let addGroups = (row.groups ?? []).filter { !member.contains($0.lowercased()) && seen.insert($0.lowercased()).inserted }
        return fields.isEmpty && addGroups.isEmpty ? .unchanged(existing) : .changed(existing, fields: fields, addGroups: addGroups)
    }
}

/// Create only, update only, or both: what the person chose in the preview.
public enum ImportMode: String, Sendable, CaseIterable {
    case both
    case createOnly = "create only"
    case updateOnly = "update only"

    public var creates: Bool { self != .updateOnly }
    public var updates: Bool { self != .createOnly }

    /// The next on the key that cycles them.
    public var next: ImportMode {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
