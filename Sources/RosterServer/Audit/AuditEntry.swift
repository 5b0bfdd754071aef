import Foundation
import RosterKit

/// One change in the audit log: when, by whom, what, and the fields before and after.
struct AuditEntry: Sendable, Equatable, Codable {
    /// Increasing; the cursor `GET /api/v1/audit?before=` pages with. 0 until stored.
    var seq: Int64
    var at: Date
    var token: String
    var client: String
    var requestID: String
    var via: String
    /// "user" or "group".
    var resource: String
    var resourceID: String
    /// "create", "update", "delete" (users and groups), "members" (a group's members, or a
    /// user's groups: `member_of`).
    var action: String
    var changes: [FieldChange]

    enum CodingKeys: String, CodingKey {
        case seq, at, token, client, via, resource, action, changes
        case requestID = "request_id"
        case resourceID = "resource_id"
    }

    init(seq: Int64 = 0, at: Date, actor: AuditActor, resource: String, resourceID: String, action: String, changes: [FieldChange]) {
        self.seq = seq
        self.at = at
        token = actor.token
        client = actor.client
        requestID = actor.requestID
        via = actor.via
        self.resource = resource
        self.resourceID = resourceID
        self.action = action
        self.changes = changes
    }

    /// The changes as stored: a JSON array.
    var changesJSON: String {
        (try? String(decoding: JSONEncoder().encode(changes), as: UTF8.self)) ?? "[]"
    }

    static func changes(fromJSON text: String) -> [FieldChange] {
        (try? JSONDecoder().decode([FieldChange].self, from: Data(text.utf8))) ?? []
    }
}

/// A field's value before and after a change, as text (a SCIM attribute as its JSON); nil
/// where there was none (a create's before, a delete's after).
struct FieldChange: Sendable, Equatable, Codable {
    var field: String
    var before: String?
    var after: String?

    enum CodingKeys: String, CodingKey { case field, before, after }

    /// `before` and `after` always, as null where there was none: the wire contract has both.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(field, forKey: .field)
        try container.encode(before, forKey: .before)
        try container.encode(after, forKey: .after)
    }
}

extension FieldChange {
    /// Attributes whose values are never recorded, in any case: secrets.
    static let secretNames: Set<String> = ["password"]

    /// The Roster fields that differ between two versions of a user (either may be nil).
    static func diff(_ before: User?, _ after: User?) -> [FieldChange] {
        let fields: [(String, (User) -> String)] = [
            ("name", \.name), ("email", \.email), ("role", { $0.role.rawValue }), ("status", { $0.status.rawValue }),
        ]
        return fields.compactMap { field, value in
            let old = before.map(value), new = after.map(value)
            return old == new ? nil : FieldChange(field: field, before: old, after: new)
        }
    }

    /// A SCIM user's changes: the Roster fields, userName, and the document's attributes.
    static func diff(_ before: SCIMUserRecord?, _ after: SCIMUserRecord?) -> [FieldChange] {
        var changes = diff(before?.user, after?.user)
        if before?.userName != after?.userName {
            changes.append(FieldChange(field: "userName", before: before?.userName, after: after?.userName))
        }
        return changes + diff(before?.document, after?.document)
    }

    /// A group's name, when it changed.
    static func diff(name before: String?, _ after: String?) -> [FieldChange] {
        before == after ? [] : [FieldChange(field: "name", before: before, after: after)]
    }

    /// Users put in and taken out of a group, by id, comma-separated.
    static func members(added: [String], removed: [String]) -> [FieldChange] {
        var changes: [FieldChange] = []
        if !added.isEmpty { changes.append(FieldChange(field: "members_added", before: nil, after: added.joined(separator: ","))) }
        if !removed.isEmpty { changes.append(FieldChange(field: "members_removed", before: removed.joined(separator: ","), after: nil)) }
        return changes
    }

    /// The top-level SCIM attributes that differ between two documents, as JSON text; secrets never.
    static func diff(_ before: SCIMObject?, _ after: SCIMObject?, prefix: String = "scim.") -> [FieldChange] {
        var names: [String] = []
        for member in (before?.members ?? []) + (after?.members ?? []) where !names.contains(where: { $0.caseInsensitiveEquals(member.name) }) {
            names.append(member.name)
        }
        return names.compactMap { name in
            guard !secretNames.contains(name.lowercased()) else { return nil }
            let old = before?[name].map(SCIMJSONWriter.text), new = after?[name].map(SCIMJSONWriter.text)
            return old == new ? nil : FieldChange(field: prefix + name, before: old, after: new)
        }
    }
}
