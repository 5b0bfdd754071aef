import Foundation
import Hummingbird
import NIOCore
import RosterKit

/// The group calls under `/api/v1/groups`: groups themselves, and who is in them.
struct GroupHandlers: Sendable {
    let store: any DirectoryStore
    /// Where "now" comes from for created_at and updated_at.
    let now: @Sendable () -> Date

    func list(_ request: Request, context: some RequestContext) async throws -> Response {
        let query = try GroupQueryParsing.parse(request.uri.query)
        return JSONResponse.make(APIResponse.success(try await store.groups(query)))
    }

    /// Honours `Idempotency-Key` as a user create does: a retry whose first attempt committed
    /// gets the first answer again, not a 409 for the name its own first attempt took.
    func create(_ request: Request, context: some RequestContext) async throws -> Response {
        let key = try IdempotencyKeyHeader.parse(request.headers)
        let body = try await JSONBody.read(request)
        let draft = try GroupBodyDecoding.draft(body)
        guard let key else {
            let group = try await mapped { try await store.createGroup(draft, at: now()) }
            return JSONResponse.make(APIResponse.success(group), status: .created, headers: [.location: Self.location(of: group.id)])
        }
        let keyed = IdempotentRequest.groupCreate(key: key, body: Data(body.readableBytesView))
        if let first = try await mapped({ try await store.firstAnswer(to: keyed, at: now()) }) {
            return Self.created(envelope: first.response, groupID: first.resourceID)
        }
        // The answer recorded for the key, so the first 201 and its replays are the same bytes.
        let answer = try await mapped({ try await store.createGroup(draft, at: now(), idempotency: keyed) }).answer
        return Self.created(envelope: answer.response, groupID: answer.resourceID)
    }

    /// A keyed 201: the envelope recorded for the key, and `Location`.
    private static func created(envelope: [UInt8], groupID: String) -> Response {
        JSONResponse.raw(envelope, status: .created, headers: [.location: location(of: groupID)])
    }

    func get(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try groupID(context)
        return JSONResponse.make(APIResponse.success(try await mapped { try await store.group(id: id) }))
    }

    func update(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try groupID(context)
        let draft = try GroupBodyDecoding.draft(try await JSONBody.read(request))
        return JSONResponse.make(APIResponse.success(try await mapped { try await store.renameGroup(id: id, to: draft, at: now()) }))
    }

    func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try groupID(context)
        return JSONResponse.make(APIResponse.success(try await mapped { try await store.deleteGroup(id: id, at: now()) }))
    }

    /// `GET /groups/{id}/members`: a user list (paging, search, sort) of the group's members.
    func members(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try groupID(context)
        let query = try ListQueryParsing.parse(request.uri.query).base
        do {
            return JSONResponse.raw(try await mapped { try await store.membersEnvelope(groupID: id, query: query) })
        } catch StoreError.queryTooSlow {
            throw APIProblem.queryTooSlow(search: query.search)
        }
    }

    func addMember(_ request: Request, context: some RequestContext) async throws -> Response {
        try await setMembership(context, isMember: true)
    }

    func removeMember(_ request: Request, context: some RequestContext) async throws -> Response {
        try await setMembership(context, isMember: false)
    }

    /// `POST /groups/{id}/members` with `{"add": [...], "remove": [...]}`.
    func changeMembers(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try groupID(context)
        let change = try GroupBodyDecoding.membershipChange(try await JSONBody.read(request))
        _ = try await mapped { try await store.group(id: id) }
        try GroupBodyDecoding.checkLimits(of: change)
        return JSONResponse.make(APIResponse.success(try await mapped { try await store.changeMembers(of: id, change, at: now()) }))
    }

    private func setMembership(_ context: some RequestContext, isMember: Bool) async throws -> Response {
        let id = try groupID(context)
        guard let userID = context.parameters.get("user_id") else { throw APIProblem.userNotFound }
        let group = try await mapped { try await store.setMembership(of: userID, in: id, isMember: isMember, at: now()) }
        return JSONResponse.make(APIResponse.success(group))
    }

    /// The path of a group's resource, as `Location` of a 201.
    static func location(of id: String) -> String {
        "/api/v1/groups/" + (id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id)
    }

    private func groupID(_ context: some RequestContext) throws -> String {
        guard let id = context.parameters.get("id") else { throw APIProblem.groupNotFound }
        return id
    }

    /// The store's refusals as the API's answers.
    private func mapped<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch StoreError.groupNotFound {
            throw APIProblem.groupNotFound
        } catch StoreError.notFound {
            throw APIProblem.userNotFound
        } catch StoreError.groupNameTaken {
            throw APIProblem.groupNameTaken
        } catch StoreError.unknownUsers(let fields) {
            throw APIProblem.unknownUsers(fields)
        } catch StoreError.idempotencyKeyReused {
            throw APIProblem.idempotencyKeyReused
        }
    }
}
