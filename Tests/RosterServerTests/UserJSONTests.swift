import Foundation
@testable import RosterKit
@testable import RosterServer
import Testing

@Suite("The server's hand-written JSON says what the wire models say")
struct UserJSONTests {
    static let users: [User] = [
        "Ada", "quote \" and backslash \\", "slash / and tab\tand newline\n", "bell \u{7} nul \u{0} esc \u{1B} del \u{7F}",
        "Анна 佐藤 👩🏽‍💻 e\u{301}", "\u{2028}line separator\u{2029}", "",
    ].enumerated().map { index, name in
        User(id: "id\(index)", name: name, email: "user\(index)+tag@example.com", role: [Role.admin, .member, .unknown("owner")][index % 3],
             status: [Status.active, .suspended, .invited][index % 3],
             createdAt: Date(timeIntervalSince1970: 1_700_000_000.123 + Double(index) * 86_400 * 400),
             updatedAt: Date(timeIntervalSince1970: -0.001 * Double(index)),
             groups: index % 2 == 0 ? [] : [GroupReference(id: "g\(index)", name: "Ops \"\(index)\" ✓"), GroupReference(id: "h", name: name)])
    }

    private func sameJSON(_ handWritten: [UInt8], _ encodable: some Encodable) throws -> Bool {
        let ours = try JSONSerialization.jsonObject(with: Data(handWritten)) as? NSDictionary
        let reference = try JSONSerialization.jsonObject(with: WireFormat.makeEncoder().encode(encodable)) as? NSDictionary
        return ours != nil && ours == reference
    }

    @Test("a page envelope equals JSONEncoder's, and decodes to the same page")
    func page() throws {
        let page = Page(items: Self.users, page: 3, perPage: 7, total: 1234)
        let bytes = UserJSON.envelope(page)
        #expect(try sameJSON(bytes, APIResponse.success(page)))
        let decoded = try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: Data(bytes))
        #expect(decoded.success)
        #expect(decoded.error == nil)
        #expect(decoded.data?.items.map(\.name) == Self.users.map(\.name))
        #expect(decoded.data?.items.map { Array($0.name.utf8) } == Self.users.map { Array($0.name.utf8) })
        #expect(decoded.data?.items.map { ISO8601Timestamp.format($0.createdAt) } == Self.users.map { ISO8601Timestamp.format($0.createdAt) })
        #expect(try sameJSON(UserJSON.envelope(Page<User>(items: [], page: 1, perPage: 50, total: 0)),
                             APIResponse.success(Page<User>(items: [], page: 1, perPage: 50, total: 0))))
    }

    @Test("RosterKit's page reading gives what JSONDecoder gives for the server's pages, groups included")
    func pageScanner() throws {
        let plain = Self.users.filter { !$0.name.unicodeScalars.contains { $0.value < 0x20 || $0 == "\"" || $0 == "\\" } }
        let plainGroups = plain.map { user in
            var user = user
            user.groups = user.groups.map { GroupReference(id: $0.id, name: "Ops \($0.id)") }
            return user
        }
        #expect(plainGroups.contains { !$0.groups.isEmpty })
        for users in [plainGroups, plain, Self.users] {
            let bytes = Data(UserJSON.envelope(Page(items: users, page: 2, perPage: 50, total: 99)))
            let reference = try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: bytes).data
            #expect(reference?.items.map(\.groups) == users.map(\.groups))
            // PageScanner (the client's fast path) reads the server's pages, groups included,
            // except names it would have to unescape, which it leaves to JSONDecoder.
            let scanned = PageScanner.page(in: bytes)
            if users == plainGroups { #expect(scanned != nil, "the server's own layout takes the fast path") }
            if let scanned { #expect(scanned == reference) }
            #expect(try WireFormat.decodeEnvelope(APIResponse<Page<User>>.self, from: bytes, decoder: WireFormat.makeDecoder()).data == reference)
        }
    }

    @Test("a user envelope equals JSONEncoder's")
    func user() throws {
        for user in Self.users {
            #expect(try sameJSON(UserJSON.envelope(user), APIResponse.success(user)), "\(user.name)")
        }
    }

    @Test("timestamps: UTC, milliseconds, before and after 1970")
    func timestamps() {
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: 1_700_000_000.25)) == "2023-11-14T22:13:20.250Z")
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        var bytes: [UInt8] = []
        ISO8601Timestamp.append(Date(timeIntervalSince1970: 1_767_225_599.999), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "2025-12-31T23:59:59.999Z")
    }
}
