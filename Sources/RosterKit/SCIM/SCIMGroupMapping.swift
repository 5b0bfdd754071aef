import Foundation

/// SCIM Group resources (RFC 7643 section 4.2) as Roster's `Group`, and the PATCH operations
/// that change a group's members.
public enum SCIMGroupMapping {
    /// The group a resource describes; nil without an id. SCIM has no member count: the
    /// members listed are counted.
    public static func group(from resource: JSONValue) -> Group? {
        guard let id = resource[attribute: "id"]?.stringValue else { return nil }
        let meta = resource[attribute: "meta"]
        let created = meta?[attribute: "created"]?.stringValue.flatMap(ISO8601Timestamp.parse)
        let modified = meta?[attribute: "lastModified"]?.stringValue.flatMap(ISO8601Timestamp.parse)
        return Group(
            id: id, name: resource[attribute: "displayName"]?.stringValue ?? id, memberCount: memberIDs(of: resource).count,
            createdAt: created ?? modified ?? Date(timeIntervalSince1970: 0),
            updatedAt: modified ?? created ?? Date(timeIntervalSince1970: 0))
    }

    /// The ids of the group's members, in the order the service lists them.
    public static func memberIDs(of resource: JSONValue) -> [String] {
        (resource[attribute: "members"]?.arrayValue ?? []).compactMap { $0[attribute: "value"]?.stringValue }
    }

    /// A new group's resource.
    public static func newResource(_ draft: GroupDraft) -> JSONValue {
        .object(["schemas": .array([.string(SCIMSchemas.group)]), "displayName": .string(draft.name)])
    }

    /// `add` for the ids to add (one operation), `remove` with a value filter for each id to
    /// remove: the form identity providers send, and what every service accepts.
    public static func membershipOperations(_ change: MembershipChange) -> [JSONValue] {
        var operations: [JSONValue] = []
        if !change.add.isEmpty {
            operations.append(.object([
                "op": .string("add"), "path": .string("members"),
                "value": .array(change.add.map { .object(["value": .string($0)]) }),
            ]))
        }
        for id in change.remove {
            operations.append(.object(["op": .string("remove"), "path": .string("members[value eq \(SCIMFilter.quoted(id))]")]))
        }
        return operations
    }

    /// `resource` with `change` applied to its members, everything else as read: the body of a
    /// PUT on a service without PATCH.
    public static func applying(_ change: MembershipChange, to resource: JSONValue) -> JSONValue {
        var members = (resource[attribute: "members"]?.arrayValue ?? []).filter { member in
            guard let id = member[attribute: "value"]?.stringValue else { return true }
            return !change.remove.contains(id)
        }
        let present = Set(memberIDs(of: resource))
        for id in change.add where !present.contains(id) && !change.remove.contains(id) {
            members.append(.object(["value": .string(id)]))
        }
        var replaced = resource
        replaced.set("members", .array(members))
        replaced.set("meta", nil)
        return replaced
    }
}
