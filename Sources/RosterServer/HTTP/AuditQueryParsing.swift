import Foundation
import RosterKit

/// Reads `GET /api/v1/audit`'s query string into an `AuditQuery`: a bad value is a 400,
/// unknown parameters are ignored, as for the lists.
enum AuditQueryParsing {
    private static let names = ["since", "resource", "resource_id", "token", "action", "before", "limit"]
    static let resources = ["user", "group"]
    static let actions = ["create", "update", "delete", "members"]

    static func parse(_ query: String?) throws(APIProblem) -> AuditQuery {
        var result = AuditQuery()
        var seen = Set<String>()
        for (name, value) in try ListQueryParsing.pairs(query ?? "") where names.contains(name) {
            guard seen.insert(name).inserted else { throw .badQuery("Give \(name) at most once.") }
            switch name {
            case "since":
                guard let date = ISO8601Timestamp.parse(value) else {
                    throw .badQuery("since must be an ISO 8601 UTC time such as 2026-11-25T09:00:00Z.")
                }
                result.since = date
            case "resource":
                guard resources.contains(value) else { throw .badQuery("resource must be one of \(resources.joined(separator: ", ")).") }
                result.resource = value
            case "action":
                guard actions.contains(value) else { throw .badQuery("action must be one of \(actions.joined(separator: ", ")).") }
                result.action = value
            case "resource_id", "token":
                guard (1...255).contains(value.utf8.count) else { throw .badQuery("\(name) must be 1 to 255 bytes.") }
                if name == "token" { result.token = value } else { result.resourceID = value }
            case "before":
                // At most 2^53 - 1, the largest whole number every JSON reader keeps exactly.
                guard let before = Int64(value), (1...9_007_199_254_740_991).contains(before) else {
                    throw .badQuery("before must be a whole number from 1 to 9007199254740991.")
                }
                result.before = before
            default: // limit
                guard let limit = Int(value), (1...AuditQuery.maximumLimit).contains(limit) else {
                    throw .badQuery("limit must be from 1 to \(AuditQuery.maximumLimit).")
                }
                result.limit = limit
            }
        }
        return result
    }
}

/// A page of the audit log, newest first; `next_before` continues it (nil at the end).
struct AuditPage: Encodable, Sendable {
    var items: [AuditEntry]
    var nextBefore: Int64?

    enum CodingKeys: String, CodingKey {
        case items
        case nextBefore = "next_before"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextBefore, forKey: .nextBefore)
    }
}
