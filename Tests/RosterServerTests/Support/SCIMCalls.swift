import Foundation
import RosterKit
import Testing

/// Raw SCIM calls with the token and `application/scim+json`, and reading their JSON.
extension TestServer {
    func scim(_ method: HTTPMethod, _ path: String, _ body: String? = nil, headers extra: [(String, String)] = []) async throws -> RawAnswer {
        var headers = TestServer.authorization
        if body != nil { headers["Content-Type"] = "application/scim+json" }
        for (name, value) in extra { headers[name] = value }
        return try await raw(method, "/scim/v2" + path, headers: headers, body: body.map { Data.json($0) })
    }

    /// Creates a user over SCIM and returns its id, failing the test when that is not a 201.
    @discardableResult
    func scimUser(_ json: String) async throws -> String {
        let answer = try await scim(.post, "/Users", json)
        #expect(answer.status == 201, "creating \(json): \(answer.text)")
        return try #require(answer.object["id"] as? String)
    }

    /// The ids a filter matches, in the order answered (a list of at most 200).
    func ids(filter: String, extra: String = "") async throws -> [String] {
        let answer = try await scim(.get, "/Users?count=200&filter=" + filter.queryEncoded + extra)
        #expect(answer.status == 200, "filter \(filter): \(answer.text)")
        return answer.resources.compactMap { $0["id"] as? String }
    }
}

extension RawAnswer {
    /// The body as a JSON object (empty when it is not one).
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    }

    var resources: [[String: Any]] { object["Resources"] as? [[String: Any]] ?? [] }

    /// A SCIM error's scimType, and that the body is a SCIM error with the status as a string.
    var scimType: String? { object["scimType"] as? String }
    var isSCIMError: Bool {
        (object["schemas"] as? [String]) == ["urn:ietf:params:scim:api:messages:2.0:Error"] && object["status"] as? String == String(status)
    }
}

extension String {
    var queryEncoded: String {
        addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? self
    }
}

/// A user resource body.
func scimUserJSON(_ userName: String, email: String, extra: String = "") -> String {
    #"{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":\#(jsonString(userName)),"emails":[{"value":\#(jsonString(email)),"primary":true}]\#(extra.isEmpty ? "" : "," + extra)}"#
}
