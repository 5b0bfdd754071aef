import Foundation
import PropertyBased
import RosterKit
import RosterKitTestSupport
import Testing

/// The wire models read back what they wrote, for any Unicode in every string field (names,
/// emails, ids, unknown roles and statuses, group names) and any millisecond from year 1 to
/// 9999 (`ArbitraryModels.swift`). RosterServerTests' `ServerWirePropertyTests` does the same
/// across the wire: the server's writer, the client's readers.
@Suite("Wire models round-trip for any Unicode")
struct WireModelPropertyTests {
    static let text = Generator<String, Shrink.None<String>> { AnyText.string(using: &$0) }
    static let user = Generator<User, Shrink.None<User>> { User.arbitrary(using: &$0) }
    static let role = Generator<Role, Shrink.None<Role>> { Role.arbitrary(using: &$0) }
    static let status = Generator<Status, Shrink.None<Status>> { Status.arbitrary(using: &$0) }
    static let timestamp = Generator<Date, Shrink.None<Date>> { Date.arbitraryTimestamp(using: &$0) }

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try WireFormat.makeDecoder().decode(T.self, from: WireFormat.makeEncoder().encode(value))
    }

    @Test func users() async {
        await propertyCheck(count: 200, input: Self.user) { user in
            #expect(try roundTrip(user) == user)
            let page = Page(items: [user, user], page: 2, perPage: 7, total: 9)
            let body = try WireFormat.makeEncoder().encode(APIResponse.success(page))
            #expect(try WireFormat.decodeEnvelope(APIResponse<Page<User>>.self, from: body, decoder: WireFormat.makeDecoder()).data == page)
        }
    }

    @Test func drafts() async {
        await propertyCheck(count: 200, input: zip(Self.text, Self.text), Self.role.optional, Self.status.optional) { strings, role, status in
            let draft = UserDraft(name: strings.0, email: strings.1, role: role, status: status)
            let decoded = try roundTrip(draft)
            #expect(decoded == draft)
        }
    }

    @Test func groups() async {
        await propertyCheck(count: 200, input: zip(Self.text, Self.text), Gen.int(in: 0...Int(Int32.max)), zip(Self.timestamp, Self.timestamp)) { strings, count, dates in
            let group = Group(id: strings.0, name: strings.1, memberCount: count, createdAt: dates.0, updatedAt: dates.1)
            let decoded = try roundTrip(group)
            #expect(decoded == group)
        }
    }
}
