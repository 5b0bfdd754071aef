import Foundation
import NIOCore
import RosterKit
@testable import RosterServer

/// roster-server's parsers of what a client sends: SCIM filters, bodies, PATCH paths and
/// operations, list queries, and the Roster API's request bodies.
enum ServerTargets {
    static let all: [FuzzTarget] = [
        FuzzTarget(name: "scim-filter", run: filter),
        FuzzTarget(name: "scim-json", run: json),
        FuzzTarget(name: "scim-patch-path", run: patchPath),
        FuzzTarget(name: "scim-patch", run: patch),
        FuzzTarget(name: "scim-list-query", run: scimListQuery),
        FuzzTarget(name: "list-query", run: listQuery),
        FuzzTarget(name: "api-bodies", run: apiBodies),
    ]

    /// A filter that parses prints to text that parses to the same tree.
    static func filter(_ bytes: [UInt8]) {
        guard let filter = try? SCIMFilterParser.parse(String(decoding: bytes, as: UTF8.self)) else { return }
        let printed = filter.description
        // Printing may add a space the input did without (`a eq"x"`): past the limit, it is refused.
        guard printed.utf8.count <= SCIMFilterParser.maximumLength else { return }
        let again = try? SCIMFilterParser.parse(printed)
        fuzzCheck(again == filter, "the filter printed as \(printed) reads back as \(String(describing: again))")
    }

    /// A body that parses is written back (`SCIMJSONWriter`) to text that parses to the same
    /// value, and that text is written again byte for byte.
    static func json(_ bytes: [UInt8]) {
        guard let value = try? SCIMJSONParser.parse(bytes) else { return }
        let written = SCIMJSONWriter.bytes(value)
        guard let again = try? SCIMJSONParser.parse(written) else {
            return fuzzCheck(false, "the writer's output does not parse: \(String(decoding: written, as: UTF8.self))")
        }
        fuzzCheck(again == value, "the value written and read again differs")
        fuzzCheck(SCIMJSONWriter.bytes(again) == written, "compact JSON is not written back byte for byte")
    }

    static func patchPath(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        for type in [SCIMResourceType.user, .group] {
            _ = try? SCIMPatchPath.parse(text, type: type)
        }
    }

    /// A PatchOp body read and applied to a stored user and group, and the result read as a
    /// PUT body is (so a patched resource is judged by the same rules as a replaced one).
    static func patch(_ bytes: [UInt8]) {
        guard let body = try? SCIMJSONParser.parse(bytes) else { return }
        if let operations = try? SCIMPatch.operations(from: body, type: .user),
           let patched = try? SCIMPatch.apply(operations, to: storedUser, type: .user) {
            _ = try? SCIMUserResource.write(from: .object(patched), current: nil)
        }
        if let operations = try? SCIMPatch.operations(from: body, type: .group),
           let patched = try? SCIMPatch.apply(operations, to: storedGroup, type: .group) {
            _ = try? SCIMGroupResource.write(from: .object(patched))
        }
    }

    /// A list's query string (as Hummingbird splits it) and a `.search` body.
    static func scimListQuery(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let pairs = try? ListQueryParsing.pairs(text) {
            _ = try? RosterServer.SCIMListRequest(query: Dictionary(pairs, uniquingKeysWith: { first, _ in first }))
        }
        if let body = try? SCIMJSONParser.parse(bytes) {
            _ = try? RosterServer.SCIMListRequest(searchBody: body)
        }
    }

    /// The user, group and audit lists' query strings.
    static func listQuery(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let query = try? ListQueryParsing.parse(text) {
            fuzzCheck(query.base.page >= 1 && UserQuery.perPageRange.contains(query.base.perPage), "a page out of range was accepted")
        }
        _ = try? GroupQueryParsing.parse(text)
        _ = try? AuditQueryParsing.parse(text)
    }

    /// The Roster API's bodies: the first byte picks user draft, group draft or membership change.
    static func apiBodies(_ bytes: [UInt8]) {
        guard let kind = bytes.first else { return }
        let body = ByteBuffer(bytes: bytes.dropFirst())
        switch kind % 3 {
        case 0:
            if let draft = try? DraftDecoding.decode(body) {
                fuzzCheck(UserValidation.problems(in: draft).isEmpty, "a draft with problems was accepted")
                fuzzCheck(UserValidation.normalized(draft) == draft, "an accepted draft is not normalized")
            }
        case 1:
            if let draft = try? GroupBodyDecoding.draft(body) {
                fuzzCheck(draft.problems.isEmpty && draft.normalized == draft, "a group draft with problems was accepted")
            }
        default:
            if let change = try? GroupBodyDecoding.membershipChange(body) {
                _ = try? GroupBodyDecoding.checkLimits(of: change)
            }
        }
    }

    private static let storedUser: SCIMObject = object(#"""
        {"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
         "id":"u1","userName":"ada@example.com","displayName":"Ada Lovelace","name":{"givenName":"Ada","familyName":"Lovelace"},
         "emails":[{"value":"ada@example.com","type":"work","primary":true},{"value":"ada@home.example","type":"home"}],
         "roles":[{"value":"admin","primary":true}],"active":true,
         "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"manager":{"value":"u2"},"department":"R&D"}}
        """#)

    private static let storedGroup: SCIMObject = object(#"""
        {"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"id":"g1","displayName":"Engineering",
         "members":[{"value":"u1","type":"User"},{"value":"u2"}]}
        """#)

    private static func object(_ text: String) -> SCIMObject {
        guard case .object(let object)? = try? SCIMJSONParser.parse(text) else { fatalError("a stored resource that is not JSON") }
        return object
    }
}
