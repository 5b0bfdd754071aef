import Foundation
import PropertyBased
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterServer

/// Across the wire, for any Unicode: what roster-server writes, Roster reads back the same.
@Suite("Wire properties: the server's writers, the client's readers")
struct ServerWirePropertyTests {
    static let users = Generator<[User], Shrink.None<[User]>> { random in
        (0..<Int.random(in: 0...4, using: &random)).map { _ in User.arbitrary(using: &random) }
    }

    /// `UserJSON` (the server's hand-written pages and users) read by `decodeEnvelope` (the
    /// client's `PageScanner`, or `JSONDecoder` when it declines) and by `JSONDecoder` alone.
    @Test func pagesAndUsers() async {
        await propertyCheck(count: 200, input: Self.users, Gen.int(in: 1...10_000_000)) { users, page in
            let expected = Page(items: users, page: page, perPage: 50, total: users.count + page)
            let body = Data(UserJSON.envelope(expected))
            let read = try WireFormat.decodeEnvelope(APIResponse<Page<User>>.self, from: body, decoder: WireFormat.makeDecoder())
            #expect(read.data == expected)
            #expect(try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: body).data == expected)
            for user in users {
                let one = Data(UserJSON.envelope(user))
                #expect(try WireFormat.makeDecoder().decode(APIResponse<User>.self, from: one).data == user)
            }
        }
    }

    /// Roster's new SCIM user (`SCIMUserMapping`) through the server's JSON reader and writer
    /// (`SCIMJSONParser`, `SCIMJSONWriter`) comes back as the same value and the same user.
    @Test func scimUsers() async {
        let draft = Generator<UserDraft, Shrink.None<UserDraft>> { random in
            UserDraft(name: AnyText.string(using: &random), email: AnyText.string(using: &random), role: .arbitrary(using: &random),
                      status: .arbitrary(using: &random), userName: Bool.random(using: &random) ? AnyText.string(using: &random) : nil)
        }
        await propertyCheck(count: 200, input: draft) { draft in
            var resource = SCIMUserMapping.newResource(from: draft, capabilities: SCIMCapabilities(hasRoles: true))
            resource.set("id", .string(draft.email + "-id"))
            let sent = try JSONEncoder().encode(resource)
            let written = Data(SCIMJSONWriter.bytes(try SCIMJSONParser.parse(Array(sent))))
            let received = try JSONDecoder().decode(JSONValue.self, from: written)
            #expect(received == resource)
            #expect(SCIMUserMapping.user(from: received) == SCIMUserMapping.user(from: resource))
        }
    }
}
