import Foundation
import Hummingbird
import NIOCore
import RosterKit

/// The five user calls: parse and validate the request, ask the store, answer with the envelope.
/// A create honours `Idempotency-Key` (see `DirectoryStore.create(_:at:idempotency:)`).
struct UserHandlers: Sendable {
    let store: any DirectoryStore
    /// Nil when the cache is off: every list call then runs its query.
    let listCache: ListResponseCache?
    /// Where "now" comes from for created_at and updated_at.
    let now: @Sendable () -> Date

    func list(_ request: Request, context: some RequestContext) async throws -> Response {
        let query = try ListQueryParsing.parse(request.uri.query)
        do {
            guard let listCache else {
                return JSONResponse.raw(ByteBuffer(bytes: try await store.listEnvelope(query)))
            }
            let body = try await listCache.answer(ListResponseCache.key(query), generation: store.generation) {
                ByteBuffer(bytes: try await store.listEnvelope(query))
            }
            return JSONResponse.raw(body)
        } catch StoreError.queryTooSlow {
            throw APIProblem.queryTooSlow(search: query.base.search)
        }
    }

    func get(_ request: Request, context: some RequestContext) async throws -> Response {
        return JSONResponse.raw(try await mapped { try await store.getEnvelope(id: try id(context)) })
    }

    func create(_ request: Request, context: some RequestContext) async throws -> Response {
        let key = try IdempotencyKeyHeader.parse(request.headers)
        let body = try await JSONBody.read(request)
        // Decoded first, even for a retry: only a valid draft's body can match a record, so
        // no other bytes (a group create's fingerprint, say) are answered with a user.
        let draft = try DraftDecoding.decode(body)
        guard let key else {
            let user = try await mapped { try await store.create(draft, at: now()) }
            return Self.created(envelope: UserJSON.envelope(user), userID: user.id)
        }
        // A retry whose first attempt committed is answered without waiting for the writer.
        let keyed = IdempotentRequest.userCreate(key: key, body: Data(body.readableBytesView))
        if let first = try await mapped({ try await store.firstAnswer(to: keyed, at: now()) }) {
            return Self.created(envelope: first.response, userID: first.resourceID)
        }
        let answer = try await mapped({ try await store.create(draft, at: now(), idempotency: keyed) }).answer
        return Self.created(envelope: answer.response, userID: answer.resourceID)
    }

    func update(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try id(context)
        let draft = try DraftDecoding.decode(try await JSONBody.read(request))
        let ifMatch = request.headers[.ifMatch]
        let user = try await mapped { try await store.update(id: id, with: draft, ifMatch: ifMatch, at: now()) }
        return JSONResponse.raw(UserJSON.envelope(user), headers: [.eTag: user.entityTag])
    }

    func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try id(context)
        let ifMatch = request.headers[.ifMatch]
        let user = try await mapped { try await store.delete(id: id, ifMatch: ifMatch, at: now()) }
        return JSONResponse.raw(UserJSON.envelope(user))
    }

    /// A 201 with the user's envelope and `Location`.
    private static func created(envelope: [UInt8], userID: String) -> Response {
        JSONResponse.raw(envelope, status: .created, headers: [.location: location(ofUserID: userID)])
    }

    /// The path of a user's resource, as `Location` of a 201.
    static func location(ofUserID id: String) -> String {
        "/api/v1/users/" + (id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id)
    }

    private func id(_ context: some RequestContext) throws -> String {
        guard let id = context.parameters.get("id") else { throw APIProblem.userNotFound }
        return id
    }

    /// The store's refusals as the API's answers.
    private func mapped<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch StoreError.notFound {
            throw APIProblem.userNotFound
        } catch StoreError.emailTaken {
            throw APIProblem.emailTaken
        } catch StoreError.idempotencyKeyReused {
            throw APIProblem.idempotencyKeyReused
        } catch StoreError.versionMismatch {
            throw APIProblem.userChanged
        }
    }
}
