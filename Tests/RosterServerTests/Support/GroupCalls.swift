import Foundation
import RosterKit
import Testing

/// Raw calls with the token and a JSON body, for the group routes (RosterKit has no group
/// client yet), and reading an answer's data with the wire decoder.
extension TestServer {
    func call(_ method: HTTPMethod, _ path: String, _ body: String? = nil) async throws -> RawAnswer {
        try await raw(method, path, headers: body == nil ? TestServer.authorization : TestServer.jsonWithAuthorization,
                      body: body.map { Data.json($0) })
    }

    /// Creates a group and returns it, failing the test when that is not a 201.
    func createGroup(_ name: String) async throws -> Group {
        let answer = try await call(.post, "/api/v1/groups", #"{"name":\#(jsonString(name))}"#)
        #expect(answer.status == 201, "creating \(name): \(answer.text)")
        return try answer.data(Group.self)
    }

    func user(_ id: String) async throws -> User {
        try await call(.get, "/api/v1/users/\(id)").data(User.self)
    }
}

extension RawAnswer {
    /// The `data` of a success envelope.
    func data<T: Decodable & Sendable>(_ type: T.Type) throws -> T {
        let envelope = try WireFormat.makeDecoder().decode(APIResponse<T>.self, from: response.body)
        return try #require(envelope.data, "no data in \(text)")
    }
}

/// A JSON string literal of `text`.
func jsonString(_ text: String) -> String {
    String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self)
}
