import Foundation
import NIOCore
import RosterKit

/// Turns a group's create/rename body and a membership change body into valid values, or the
/// problem to answer. As for users: unknown fields and values of the wrong type are field
/// errors (422), never silently dropped; a body that is not a JSON object is a 400.
enum GroupBodyDecoding {
    static func draft(_ body: ByteBuffer) throws(APIProblem) -> GroupDraft {
        var problems: [FieldError] = []
        var name = ""
        for (field, value) in try object(body).sorted(by: { $0.key < $1.key }) {
            if field == "name" {
                if let text = value as? String { name = text } else { problems.append(FieldError(field: field, message: "Name must be a string.")) }
            } else {
                problems.append(FieldError(field: String(field.prefix(100)), message: "Unknown field; a group has only a name."))
            }
        }
        let draft = GroupDraft(name: name).normalized
        if !problems.contains(where: { $0.field == "name" }) { problems = draft.problems + problems }
        guard problems.isEmpty else { throw .validationFailed(problems) }
        return draft
    }

    static func membershipChange(_ body: ByteBuffer) throws(APIProblem) -> MembershipChange {
        var problems: [FieldError] = []
        var lists: [String: [String]] = [:]
        for (field, value) in try object(body).sorted(by: { $0.key < $1.key }) {
            guard field == "add" || field == "remove" else {
                problems.append(FieldError(field: String(field.prefix(100)), message: "Unknown field; send only add and remove."))
                continue
            }
            guard let items = value as? [Any], let ids = items as? [String], ids.count == items.count else {
                problems.append(FieldError(field: field, message: "\(field.capitalized) must be a list of user ids."))
                continue
            }
            lists[field] = ids
        }
        guard problems.isEmpty else { throw .validationFailed(problems) }
        return MembershipChange(add: lists["add"] ?? [], remove: lists["remove"] ?? [])
    }

    /// What a well-formed change may still get wrong: over 1,000 ids, or an id in both lists.
    /// Judged after the group is found, so an unknown group is a 404 whatever the body says.
    static func checkLimits(of change: MembershipChange) throws(APIProblem) {
        var problems: [FieldError] = []
        let count = change.add.count + change.remove.count
        if count > MembershipChange.maximumIDs {
            problems.append(FieldError(
                field: change.add.count >= change.remove.count ? "add" : "remove",
                message: "At most \(MembershipChange.maximumIDs) ids in one call, add and remove together; this one has \(count)."))
        } else {
            let added = Set(change.add)
            for (index, id) in change.remove.enumerated() where added.contains(id) {
                problems.append(FieldError(field: "remove[\(index)]", message: "“\(id.prefix(100))” is also in add; a user is either added or removed."))
            }
        }
        guard problems.isEmpty else { throw .validationFailed(problems) }
    }

    private static func object(_ body: ByteBuffer) throws(APIProblem) -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(body.readableBytesView))
        } catch {
            throw .badRequest("The request body is not valid JSON.", code: "malformed_json")
        }
        guard let object = parsed as? [String: Any] else {
            throw .badRequest("The request body must be a JSON object.", code: "malformed_json")
        }
        return object
    }
}
