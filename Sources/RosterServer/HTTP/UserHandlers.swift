import Foundation
import Hummingbird
import NIOCore
import RosterKit

/// The five user calls: parse and validate the request, ask the store, answer with the envelope.
struct UserHandlers: Sendable {
    let store: UserStore
    /// Nil when the cache is off: every list call then runs its query.
    let listCache: ListResponseCache?
    /// Where "now" comes from for created_at and updated_at.
    let now: @Sendable () -> Date

    func list(_ request: Request, context: some RequestContext) async throws -> Response {
        let query = try ListQueryParsing.parse(request.uri.query)
        guard let listCache else {
            return JSONResponse.raw(ByteBuffer(bytes: try await store.listEnvelope(query)))
        }
        let body = try await listCache.answer(ListResponseCache.key(query), writes: store.writes) {
            ByteBuffer(bytes: try await store.listEnvelope(query))
        }
        return JSONResponse.raw(body)
    }

    func get(_ request: Request, context: some RequestContext) async throws -> Response {
        return JSONResponse.raw(try await mapped { try await store.getEnvelope(id: try id(context)) })
    }

    func create(_ request: Request, context: some RequestContext) async throws -> Response {
        let draft = try DraftDecoding.decode(try await JSONBody.read(request))
        let user = try await mapped { try await store.create(draft, at: now()) }
        return JSONResponse.raw(UserJSON.envelope(user), status: .created, headers: [.location: Self.location(of: user)])
    }

    func update(_ request: Request, context: some RequestContext) async throws -> Response {
        let id = try id(context)
        let draft = try DraftDecoding.decode(try await JSONBody.read(request))
        let user = try await mapped { try await store.update(id: id, with: draft, at: now()) }
        return JSONResponse.raw(UserJSON.envelope(user))
    }

    func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        let user = try await mapped { try await store.delete(id: try id(context)) }
        return JSONResponse.raw(UserJSON.envelope(user))
    }

    /// The path of a user's resource, as `Location` of a 201.
    static func location(of user: User) -> String {
        "/api/v1/users/" + (user.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? user.id)
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
        }
    }
}
