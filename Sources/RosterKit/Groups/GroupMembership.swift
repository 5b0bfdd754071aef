import Foundation

/// Puts users into a group and takes them out, one user per call: what a bulk run sends, a few
/// calls at a time. Both calls are idempotent (adding a member twice, or removing someone who
/// is not in, changes nothing), so sending one again after a 429 or a lost answer is safe.
public protocol GroupMembershipEditing: Sendable {
    func addMember(_ userID: String, to groupID: String) async throws
    func removeMember(_ userID: String, from groupID: String) async throws
}

/// The Roster API's one-member calls: `PUT` / `DELETE /api/v1/groups/{id}/members/{user_id}`.
public enum GroupMemberEndpoint: Endpoint, Equatable {
    case add(groupID: String, userID: String)
    case remove(groupID: String, userID: String)

    public var method: HTTPMethod {
        switch self {
        case .add: .put
        case .remove: .delete
        }
    }

    public var pathSegments: [String] {
        switch self {
        case .add(let group, let user), .remove(let group, let user): ["api", "v1", "groups", group, "members", user]
        }
    }
}

/// SCIM's way (RFC 7644 section 3.5.2): `PATCH /Groups/{id}` with one operation, `add` of a
/// member or `remove` of `members[value eq "id"]`. A user's own `groups` is read-only there.
public struct SCIMGroupMemberEndpoint: Endpoint {
    public var groupID: String
    public var operation: JSONValue

    public static func add(_ userID: String, to groupID: String) -> SCIMGroupMemberEndpoint {
        SCIMGroupMemberEndpoint(groupID: groupID, operation: .object([
            "op": .string("add"), "path": .string("members"), "value": .array([.object(["value": .string(userID)])]),
        ]))
    }

    public static func remove(_ userID: String, from groupID: String) -> SCIMGroupMemberEndpoint {
        SCIMGroupMemberEndpoint(groupID: groupID, operation: .object([
            "op": .string("remove"), "path": .string("members[value eq \(SCIMFilter.quoted(userID))]"),
        ]))
    }

    public var method: HTTPMethod { .patch }
    public var pathSegments: [String] { ["Groups", groupID] }

    public var headers: [(name: String, value: String)] {
        [(name: "Accept", value: "\(SCIMSchemas.mediaType), application/json"), (name: "Content-Type", value: SCIMSchemas.mediaType)]
    }

    public func encodeBody(with encoder: JSONEncoder) throws -> Data? {
        try encoder.encode(JSONValue.object([
            "schemas": .array([.string(SCIMSchemas.patchOp)]),
            "Operations": .array([operation]),
        ]))
    }
}

extension RemoteUserRepository: GroupMembershipEditing {
    public func addMember(_ userID: String, to groupID: String) async throws {
        _ = try await client.response(for: GroupMemberEndpoint.add(groupID: groupID, userID: userID))
    }

    public func removeMember(_ userID: String, from groupID: String) async throws {
        _ = try await client.response(for: GroupMemberEndpoint.remove(groupID: groupID, userID: userID))
    }
}

extension SCIMUserRepository: GroupMembershipEditing {
    public func addMember(_ userID: String, to groupID: String) async throws {
        try await requirePatch()
        _ = try await client.response(for: SCIMGroupMemberEndpoint.add(userID, to: groupID))
    }

    public func removeMember(_ userID: String, from groupID: String) async throws {
        try await requirePatch()
        _ = try await client.response(for: SCIMGroupMemberEndpoint.remove(userID, from: groupID))
    }

    /// Without PATCH a membership change would be a PUT of the whole group, every member
    /// listed: not something to send once per user.
    private func requirePatch() async throws {
        guard try await capabilities().patch else {
            throw APIError.notImplemented(ErrorBody(
                code: "patch_unsupported", message: "This SCIM service cannot change a group's members (it does not support PATCH)."))
        }
    }
}

extension DialectRepository: GroupMembershipEditing {
    public func addMember(_ userID: String, to groupID: String) async throws {
        try await membership().addMember(userID, to: groupID)
    }

    public func removeMember(_ userID: String, from groupID: String) async throws {
        try await membership().removeMember(userID, from: groupID)
    }

    private func membership() async throws -> any GroupMembershipEditing {
        guard let editing = try await repository() as? any GroupMembershipEditing else {
            throw APIError.notImplemented(ErrorBody(code: "groups_unsupported", message: "This server cannot change group members."))
        }
        return editing
    }
}
