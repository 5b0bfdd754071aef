import Foundation
import RosterKit

/// A group as a SCIM resource, and back: displayName is the group's name, members are users
/// (by id), and the document keeps everything else (externalId, extensions) as written.
enum SCIMGroupResource {
    static let notInDocument = ["id", "meta", "schemas", "displayName", "members"]

    static func render(_ record: SCIMGroupRecord, baseURL: String, includeMembers: Bool = true) -> SCIMObject {
        let document = record.document ?? SCIMObject()
        var resource = SCIMObject()
        resource["schemas"] = .array([.string(SCIMSchemas.group)] + document.members.filter { $0.name.lowercased().hasPrefix("urn:") }.map { .string($0.name) })
        resource["id"] = .string(record.group.id)
        if let externalID = document["externalId"] { resource["externalId"] = externalID }
        resource["displayName"] = .string(record.group.name)
        if includeMembers, !record.members.isEmpty {
            resource["members"] = .array(record.members.map { member in
                // No display: a member is what a client sends (value, $ref, type), so a PATCH of
                // members answers with exactly the members sent, as scim2-tester checks.
                .object(SCIMObject([
                    "value": .string(member.id), "$ref": .string("\(baseURL)/Users/\(member.id)"), "type": .string("User"),
                ]))
            })
        }
        for member in document.members where !member.name.caseInsensitiveEquals("externalId") {
            resource.members.append(member)
        }
        resource["meta"] = SCIMUserResource.meta(
            resourceType: "Group", created: record.group.createdAt, lastModified: record.group.updatedAt,
            location: "\(baseURL)/Groups/\(record.group.id)", version: record.version)
        return resource
    }

    static func write(from value: SCIMValue) throws(SCIMProblem) -> SCIMGroupWrite {
        guard case .object(let resource) = value else { throw .invalidSyntax("A Group must be a JSON object.") }
        guard let nameValue = resource["displayName"] else { throw .invalidValue("displayName is required.") }
        guard case .string(let rawName) = nameValue else { throw .invalidValue("displayName must be a string.") }
        let draft = GroupDraft(name: rawName).normalized
        if let problem = draft.problems.first { throw .invalidValue("displayName: \(problem.message)") }

        var memberIDs: [String] = []
        var seen = Set<String>()
        let entries = resource["members"].map { $0.array ?? [$0] } ?? []
        for entry in entries where !entry.isUnassigned {
            guard case .object(let member) = entry, case .string(let id)? = member["value"] else {
                throw .invalidValue("Each of members needs a value: the id of a user.")
            }
            if let type = member["type"]?.string, !type.caseInsensitiveEquals("User") {
                throw .invalidValue("members: “\(type.prefix(40))” members are not supported; a group's members are users.")
            }
            if seen.insert(id).inserted { memberIDs.append(id) }
        }
        let document = try SCIMDocument.normalize(resource, type: .group, dropping: notInDocument)
        return SCIMGroupWrite(name: draft.name, document: document, memberIDs: memberIDs)
    }
}
