import Foundation

/// SCIM User resources as Roster's `User`, and a person's edits as SCIM (docs/design.md,
/// "SCIM users as Roster users" and "Rules for writes").
public enum SCIMUserMapping {
    /// The user a resource describes. Nil when it has no `id` (not a stored user).
    public static func user(from resource: JSONValue) -> User? {
        guard let id = resource[attribute: "id"]?.stringValue else { return nil }
        let userName = resource[attribute: "userName"]?.stringValue ?? ""
        let nameObject = resource[attribute: "name"]
        let formatted = nonEmpty(nameObject?[attribute: "formatted"]?.stringValue)
        let given = nonEmpty(nameObject?[attribute: "givenName"]?.stringValue)
        let family = nonEmpty(nameObject?[attribute: "familyName"]?.stringValue)
        let displayName = nonEmpty(resource[attribute: "displayName"]?.stringValue)
        let joined = [given, family].compactMap { $0 }.joined(separator: " ")
        let name = displayName ?? formatted ?? (joined.isEmpty ? nil : joined) ?? userName

        let emails = primaryFirst(resource[attribute: "emails"])
        let roles = primaryFirst(resource[attribute: "roles"])
        let meta = resource[attribute: "meta"]
        let created = meta?[attribute: "created"]?.stringValue.flatMap(ISO8601Timestamp.parse)
        let modified = meta?[attribute: "lastModified"]?.stringValue.flatMap(ISO8601Timestamp.parse)
        let enterprise = resource[attribute: SCIMSchemas.enterpriseUser]
        let manager = enterprise?[attribute: "manager"]
        let active = resource[attribute: "active"]?.boolValue ?? true

        let details = SCIMDetails(
            userName: userName, displayName: displayName, formattedName: formatted, givenName: given, familyName: family,
            emails: emails,
            phoneNumbers: primaryFirst(resource[attribute: "phoneNumbers"]),
            roles: roles,
            groups: (resource[attribute: "groups"]?.arrayValue ?? []).compactMap {
                $0[attribute: "display"]?.stringValue ?? $0[attribute: "value"]?.stringValue
            },
            manager: nonEmpty(manager?[attribute: "displayName"]?.stringValue) ?? nonEmpty(manager?[attribute: "value"]?.stringValue),
            version: meta?[attribute: "version"]?.stringValue)

        var user = User(
            id: id, name: name, email: emails.first ?? "",
            role: roles.first.map { Role(rawValue: $0) } ?? .member,
            status: active ? .active : .suspended,
            createdAt: created ?? modified ?? Date(timeIntervalSince1970: 0),
            updatedAt: modified ?? created ?? Date(timeIntervalSince1970: 0))
        user.scim = details
        for attribute in UserAttribute.allCases {
            if let value = nonEmpty(container(of: attribute, in: resource)?[attribute: attribute.rawValue]?.stringValue) {
                user.attributes[attribute] = value
            }
        }
        // Read-only in SCIM too; the ids let the app take a user out of a group by `PATCH /Groups`.
        user.groups = (resource[attribute: "groups"]?.arrayValue ?? []).compactMap { group in
            group[attribute: "value"]?.stringValue.map { GroupReference(id: $0, name: group[attribute: "display"]?.stringValue ?? $0) }
        }
        return user
    }

    /// The resource to POST for a new user. `userName` defaults to the email, as most
    /// services use it.
    public static func newResource(from draft: UserDraft, capabilities: SCIMCapabilities) -> JSONValue {
        var members: [String: JSONValue] = [
            "schemas": .array([.string(SCIMSchemas.user)]),
            "userName": .string(nonEmpty(draft.userName) ?? draft.email),
            "displayName": .string(draft.name),
            "emails": .array([.object(["value": .string(draft.email), "type": .string("work"), "primary": .bool(true)])]),
            "active": .bool(draft.status != .suspended),
        ]
        if capabilities.hasRoles, let role = draft.role {
            members["roles"] = .array([.object(["value": .string(role.rawValue), "primary": .bool(true)])])
        }
        var resource = JSONValue.object(members)
        for (attribute, value) in draft.attributes.sorted(by: { $0.key < $1.key })
        where capabilities.attributes.contains(attribute) && !value.isEmpty {
            setAttribute(attribute, .string(value), in: &resource)
        }
        return resource
    }

    /// Where an attribute lives in a resource: the core schema's `title`; the enterprise
    /// extension's `department` and `employeeNumber`.
    static func isEnterprise(_ attribute: UserAttribute) -> Bool { attribute != .title }

    /// The PATCH path of an attribute (RFC 7644 section 3.5.2: an extension's attribute by
    /// its schema URN, a colon and its name).
    static func path(of attribute: UserAttribute) -> String {
        isEnterprise(attribute) ? "\(SCIMSchemas.enterpriseUser):\(attribute.rawValue)" : attribute.rawValue
    }

    private static func container(of attribute: UserAttribute, in resource: JSONValue) -> JSONValue? {
        isEnterprise(attribute) ? resource[attribute: SCIMSchemas.enterpriseUser] : resource
    }

    /// Sets (or with nil removes) the attribute in `resource`, every other value kept; the
    /// extension's URN joins `schemas` when the extension object is new.
    static func setAttribute(_ attribute: UserAttribute, _ value: JSONValue?, in resource: inout JSONValue) {
        guard isEnterprise(attribute) else {
            resource.set(attribute.rawValue, value)
            return
        }
        var extensionObject = resource[attribute: SCIMSchemas.enterpriseUser] ?? .object([:])
        extensionObject.set(attribute.rawValue, value)
        resource.set(SCIMSchemas.enterpriseUser, extensionObject)
        var schemas = resource[attribute: "schemas"]?.arrayValue ?? [.string(SCIMSchemas.user)]
        if !schemas.contains(.string(SCIMSchemas.enterpriseUser)) {
            schemas.append(.string(SCIMSchemas.enterpriseUser))
            resource.set("schemas", .array(schemas))
        }
    }

    /// `resource` with the draft's values in place and everything else as it was: what a PUT
    /// sends to a server without PATCH.
    public static func applying(_ draft: UserDraft, to resource: JSONValue, capabilities: SCIMCapabilities) -> JSONValue {
        var result = resource
        for operation in patchOperations(from: draft, comparedWith: resource, capabilities: capabilities) {
            switch operation.path {
            case "displayName", "active", "userName", "emails", "roles": result.set(operation.path, operation.value)
            default:
                if let attribute = UserAttribute.allCases.first(where: { path(of: $0) == operation.path }) {
                    setAttribute(attribute, operation.value, in: &result)
                }
            }
        }
        return result
    }

    public struct PatchOperation: Sendable, Equatable {
        public var op: String
        public var path: String
        /// Nil for a `remove`, which has none.
        public var value: JSONValue?

        public init(op: String, path: String, value: JSONValue?) {
            self.op = op
            self.path = path
            self.value = value
        }

        public var json: JSONValue {
            var members: [String: JSONValue] = ["op": .string(op), "path": .string(path)]
            if let value { members["value"] = value }
            return .object(members)
        }
    }

    /// Only what the person changed, each as a `replace` of the whole attribute. Multi-valued
    /// attributes are replaced with their other entries kept as they were (a work email edited,
    /// the home email untouched).
    public static func patchOperations(
        from draft: UserDraft, comparedWith resource: JSONValue, capabilities: SCIMCapabilities
    ) -> [PatchOperation] {
        guard let current = user(from: resource) else { return [] }
        var operations: [PatchOperation] = []
        if draft.name != current.name {
            operations.append(PatchOperation(op: "replace", path: "displayName", value: .string(draft.name)))
        }
        if let userName = nonEmpty(draft.userName), userName != current.scim?.userName {
            operations.append(PatchOperation(op: "replace", path: "userName", value: .string(userName)))
        }
        if draft.email != current.email {
            operations.append(PatchOperation(
                op: "replace", path: "emails",
                value: replacingPrimary(in: resource[attribute: "emails"], with: draft.email, type: "work")))
        }
        if let status = draft.status, status != current.status, status == .active || status == .suspended {
            operations.append(PatchOperation(op: "replace", path: "active", value: .bool(status == .active)))
        }
        if capabilities.hasRoles, let role = draft.role, role != current.role {
            operations.append(PatchOperation(
                op: "replace", path: "roles", value: replacingPrimary(in: resource[attribute: "roles"], with: role.rawValue, type: nil)))
        }
        // Only the attributes the draft names; an empty value removes the attribute.
        for (attribute, value) in draft.attributes.sorted(by: { $0.key < $1.key }) where capabilities.attributes.contains(attribute) {
            let now = current.attributes[attribute] ?? ""
            guard value.trimmingCharacters(in: .whitespaces) != now else { continue }
            operations.append(value.trimmingCharacters(in: .whitespaces).isEmpty
                ? PatchOperation(op: "remove", path: path(of: attribute), value: nil)
                : PatchOperation(op: "replace", path: path(of: attribute), value: .string(value)))
        }
        return operations
    }

    /// A multi-valued attribute whose primary (else first) entry's value is `value`, every
    /// other entry and every other sub-attribute unchanged.
    static func replacingPrimary(in attribute: JSONValue?, with value: String, type: String?) -> JSONValue {
        var entries = attribute?.arrayValue ?? []
        let index = entries.firstIndex { $0[attribute: "primary"]?.boolValue == true } ?? (entries.isEmpty ? nil : 0)
        if let index {
            entries[index].set("value", .string(value))
        } else {
            var entry: [String: JSONValue] = ["value": .string(value), "primary": .bool(true)]
            if let type { entry["type"] = .string(type) }
            entries.append(.object(entry))
        }
        return .array(entries)
    }

    /// The values of a multi-valued attribute, the primary one first.
    static func primaryFirst(_ attribute: JSONValue?) -> [String] {
        let entries = attribute?.arrayValue ?? []
        let primary = entries.filter { $0[attribute: "primary"]?.boolValue == true }
        let others = entries.filter { $0[attribute: "primary"]?.boolValue != true }
        return (primary + others).compactMap { $0[attribute: "value"]?.stringValue }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }
}
