import Foundation
import RosterKit

/// A user as a SCIM resource, and back. The mapping (docs/design.md, "SCIM users as Roster users"):
///
/// | Roster | SCIM |
/// |---|---|
/// | name | displayName, else name.formatted, else givenName familyName, else userName |
/// | email | emails[primary eq true].value, else the first emails value |
/// | status active / suspended | active true / false (invited shows as false and stays invited) |
/// | role | roles[primary eq true].value, else the first, when it is admin, member or viewer |
/// | groups | groups (read-only) |
/// | created_at, updated_at | meta.created, meta.lastModified; the revision is meta.version |
///
/// A user written over SCIM has a document, which is their SCIM representation as written;
/// Roster's columns are derived from it. A user never written over SCIM is rendered from the
/// columns alone.
enum SCIMUserResource {
    /// Never stored in the document: the server's own (id, meta, groups), the schemas list
    /// (derived from the extensions present), userName (a column), and password (Roster keeps none).
    static let notInDocument = ["id", "meta", "schemas", "groups", "userName", "password"]

    static func render(_ record: SCIMUserRecord, baseURL: String) -> SCIMObject {
        let user = record.user
        let document = record.document ?? synthesized(user)
        var resource = SCIMObject()
        resource["schemas"] = .array([.string(SCIMSchemas.user)] + document.members.filter { $0.name.lowercased().hasPrefix("urn:") }.map { .string($0.name) })
        resource["id"] = .string(user.id)
        if let externalID = document["externalId"] { resource["externalId"] = externalID }
        resource["userName"] = .string(record.userName)
        for member in document.members where !member.name.caseInsensitiveEquals("externalId") {
            resource.members.append(member)
        }
        if !user.groups.isEmpty {
            resource["groups"] = .array(user.groups.map { group in
                .object(SCIMObject([
                    "value": .string(group.id), "$ref": .string("\(baseURL)/Groups/\(group.id)"),
                    "display": .string(group.name), "type": .string("direct"),
                ]))
            })
        }
        resource["meta"] = meta(resourceType: "User", created: user.createdAt, lastModified: user.updatedAt,
                                location: "\(baseURL)/Users/\(user.id)", version: record.version)
        return resource
    }

    static func meta(resourceType: String, created: Date, lastModified: Date, location: String, version: String) -> SCIMValue {
        .object(SCIMObject([
            "resourceType": .string(resourceType),
            "created": .string(ISO8601Timestamp.format(created)),
            "lastModified": .string(ISO8601Timestamp.format(lastModified)),
            "location": .string(location),
            "version": .string(version),
        ]))
    }

    /// The document of a user made through the Roster API.
    static func synthesized(_ user: User) -> SCIMObject {
        SCIMObject([
            "displayName": .string(user.name),
            "emails": .array([.object(SCIMObject(["value": .string(user.email), "primary": .bool(true)]))]),
            "active": .bool(user.status == .active),
            "roles": .array([.object(SCIMObject(["value": .string(user.role.rawValue), "primary": .bool(true)]))]),
        ])
    }

    /// Reads a resource a client sent (POST, PUT, or a PATCH's result) into what is written.
    /// - Parameter current: the user being replaced, nil for a create.
    static func write(from value: SCIMValue, current: SCIMUserRecord?) throws(SCIMProblem) -> SCIMUserWrite {
        guard case .object(let resource) = value else { throw .invalidSyntax("A User must be a JSON object.") }
        guard let userNameValue = resource["userName"] else { throw .invalidValue("userName is required.") }
        guard case .string(let rawUserName) = userNameValue else { throw .invalidValue("userName must be a string.") }
        let userName = rawUserName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !userName.isEmpty else { throw .invalidValue("userName must not be empty.") }
        guard userName.unicodeScalars.count <= 256 else { throw .invalidValue("userName must be at most 256 characters.") }
        guard !userName.unicodeScalars.contains(where: UserValidation.isForbiddenInText) else {
            throw .invalidValue("userName must not contain control characters.")
        }
        let document = try SCIMDocument.normalize(resource, type: .user, dropping: notInDocument)

        guard let email = primaryValue(document["emails"]) else {
            throw .invalidValue("emails is required: every Roster user has an email (the primary one, else the first).")
        }
        if let problem = UserValidation.emailProblem(email) { throw .invalidValue("emails: \(problem)") }

        let name = String(derivedName(document, userName: userName).prefix(UserValidation.nameLengthRange.upperBound))
        if name.unicodeScalars.contains(where: UserValidation.isForbiddenInText) {
            throw .invalidValue("displayName must not contain control characters.")
        }

        let role = primaryValue(document["roles"]).map(Role.init(rawValue:)).flatMap { $0.isKnown ? $0 : nil }
            ?? current?.user.role ?? .member
        let status: Status
        switch document["active"]?.bool {
        case true?: status = .active
        case false?: status = current?.user.status == .invited ? .invited : .suspended
        case nil: status = current?.user.status ?? .active
        }
        return SCIMUserWrite(userName: userName, name: name, email: email.trimmingCharacters(in: .whitespacesAndNewlines), role: role, status: status, document: document)
    }

    /// Roster's name: displayName, else name.formatted, else given and family names, else userName.
    static func derivedName(_ document: SCIMObject, userName: String) -> String {
        let name = document["name"]?.object
        let candidates: [String?] = [
            document["displayName"]?.string,
            name?["formatted"]?.string,
            [name?["givenName"]?.string, name?["familyName"]?.string].compactMap { $0 }.joined(separator: " "),
        ]
        for candidate in candidates {
            if let trimmed = candidate?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty { return trimmed }
        }
        return userName
    }

    /// The value of the entry marked primary, else of the first entry.
    static func primaryValue(_ value: SCIMValue?) -> String? {
        guard let entries = value?.array, !entries.isEmpty else { return nil }
        let primary = entries.first { $0.object?["primary"]?.bool == true } ?? entries[0]
        return primary.object?["value"]?.string ?? primary.string
    }

    /// The index of the entry `primaryValue` reads.
    private static func primaryIndex(_ entries: [SCIMValue]) -> Int {
        entries.firstIndex { $0.object?["primary"]?.bool == true } ?? 0
    }

    /// The document after a Roster API edit: the attributes Roster derives its fields from
    /// now say what the edit said. Everything else stays as it was.
    static func following(_ original: SCIMObject, user: User) -> SCIMObject {
        var document = original
        if document["displayName"] != nil || derivedName(document, userName: "") != user.name {
            document["displayName"] = .string(user.name)
        }
        if primaryValue(document["emails"]) != user.email {
            document["emails"] = setPrimaryValue(document["emails"], to: user.email)
        }
        let active = user.status == .active
        if document["active"] != nil || !active {
            document["active"] = .bool(active)
        }
        let documentRole = primaryValue(document["roles"]).map(Role.init(rawValue:)).flatMap { $0.isKnown ? $0 : nil } ?? .member
        if documentRole != user.role {
            document["roles"] = setPrimaryValue(document["roles"], to: user.role.rawValue)
        }
        return document
    }

    private static func setPrimaryValue(_ value: SCIMValue?, to newValue: String) -> SCIMValue {
        guard var entries = value?.array, !entries.isEmpty else {
            return .array([.object(SCIMObject(["value": .string(newValue), "primary": .bool(true)]))])
        }
        let index = primaryIndex(entries)
        var entry = entries[index].object ?? SCIMObject()
        entry["value"] = .string(newValue)
        entries[index] = .object(entry)
        return .array(entries)
    }
}
