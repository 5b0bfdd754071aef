import Foundation
import RosterKit

extension JournalEntry {
    /// What changed, in a few words: "status active → suspended", "created", "added to Sales".
    public var change: String {
        switch action {
        case .createUser: return "created"
        case .deleteUser: return "deleted"
        case .createGroup: return "group created"
        case .deleteGroup: return "group deleted"
        case .renameGroup:
            return "renamed \(before?.group?.name ?? "?") → \(after?.group?.name ?? "?")"
        case .addMember, .removeMember:
            guard case .membership(let group, _)? = after ?? before else { return action == .addMember ? "added to a group" : "removed from a group" }
            return action == .addMember ? "added to \(group.name)" : "removed from \(group.name)"
        case .resetPassword: return "password reset (not kept; cannot be undone)"
        case .unlock: return "unlocked (cannot be undone)"
        case .updateUser:
            guard let old = before?.user, let new = after?.user else { return "edited" }
            let fields = UserFields.differences(from: old, to: new)
            return fields.isEmpty ? "edited (nothing Roster shows)" : fields.map { "\($0.name) \($0.before) → \($0.after)" }.joined(separator: ", ")
        }
    }

    /// One line for `roster journal`: time, state, connection, who, what.
    public var textLine: String {
        var line = "\(ISO8601Timestamp.format(time))  #\(id)  \(state.rawValue)  \(connection)  \(kind.rawValue) \(objectID)  \(label): \(change)"
        if let undoes { line += "  (undoes #\(undoes))" }
        if let etag { line += "  etag \(etag)" }
        if let detail { line += "  — \(detail)" }
        return line
    }
}

extension JournalEntry {
    /// `time` in seconds since 1970: an order for those who do not import Foundation.
    public var seconds: Double { time.timeIntervalSince1970 }
}

extension JournalRun {
    public var startedSeconds: Double { startedAt.timeIntervalSince1970 }

    /// "2026-11-26T01:00:00Z  run 1A2B…  done  local  Suspending: 200 users".
    public var textLine: String {
        var line = "\(ISO8601Timestamp.format(startedAt))  run \(id.prefix(8))  \(state.rawValue)  \(connection)  \(what): \(count) \(count == 1 ? "user" : "users")"
        if let undoes { line += "  (undoes run \(undoes.prefix(8)))" }
        return line
    }
}

/// The user fields Roster writes, compared: what the journal shows and undo checks. The
/// profile attributes (`User.attributes`) are fields too: "title Engineer → Lead".
public enum UserFields {
    public struct Difference: Sendable, Equatable {
        public var name: String
        public var before: String
        public var after: String
        /// The profile attribute this is, when it is one (its `name` is the attribute's label).
        public var attribute: UserAttribute?
    }

    /// How an attribute the user does not have reads in a difference.
    public static let none = "(none)"

    public static func differences(from old: User, to new: User) -> [Difference] {
        var result: [Difference] = []
        if old.name != new.name { result.append(Difference(name: "name", before: old.name, after: new.name)) }
        if old.email != new.email { result.append(Difference(name: "email", before: old.email, after: new.email)) }
        if old.role != new.role { result.append(Difference(name: "role", before: old.role.rawValue, after: new.role.rawValue)) }
        if old.status != new.status { result.append(Difference(name: "status", before: old.status.rawValue, after: new.status.rawValue)) }
        for attribute in UserAttribute.allCases where old.attributes[attribute] != new.attributes[attribute] {
            result.append(Difference(name: attribute.label, before: old.attributes[attribute] ?? none,
                                     after: new.attributes[attribute] ?? none, attribute: attribute))
        }
        return result
    }

    /// Whether `a` and `b` agree on every field Roster writes.
    public static func same(_ a: User, _ b: User) -> Bool {
        a.name == b.name && a.email == b.email && a.role == b.role && a.status == b.status && a.attributes == b.attributes
    }
}
