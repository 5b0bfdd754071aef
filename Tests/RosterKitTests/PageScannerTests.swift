import Foundation
@testable import RosterKit
import Testing

/// `PageScanner` reads the server's own page layout; whatever it reads must decode to the
/// same page through `JSONDecoder`, and whatever it cannot read must be left to `JSONDecoder`.
@Suite("PageScanner: the fast reading of a page agrees with JSONDecoder")
struct PageScannerTests {
    /// A user object laid out as RosterServer's `UserJSON` writes it.
    static func object(id: String, name: String, email: String = "a@example.com", role: String = "member",
                       status: String = "active", created: String = "2025-11-21T09:30:00.000Z",
                       updated: String = "2025-11-21T09:30:00.500Z") -> String {
        #"{"id":"\#(id)","name":"\#(name)","email":"\#(email)","role":"\#(role)","status":"\#(status)","created_at":"\#(created)","updated_at":"\#(updated)"}"#
    }

    static func envelope(_ objects: [String], page: String = "1", perPage: String = "50", total: String = "2") -> String {
        #"{"success":true,"data":{"items":[\#(objects.joined(separator: ","))],"page":\#(page),"per_page":\#(perPage),"total":\#(total)},"error":null}"#
    }

    static let plain = envelope([
        object(id: "u1", name: "Ada Lovelace", role: "admin"),
        object(id: "u2", name: "Анна 佐藤 👩🏽‍💻 e\u{301} \u{2028}", email: "x+y/z@example.org", role: "owner", status: "invited",
               created: "1969-12-31T23:59:59.999Z", updated: "2025-11-21T10:30:00+01:00"),
    ], page: "3", perPage: "7", total: "1234")

    private func viaJSONDecoder(_ body: String) throws -> Page<User>? {
        try WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: Data(body.utf8)).data
    }

    @Test("the server's layout is read, to exactly what JSONDecoder reads")
    func serverLayout() throws {
        let scanned = try #require(PageScanner.page(in: Data(Self.plain.utf8)))
        #expect(scanned == (try viaJSONDecoder(Self.plain)))
        #expect(scanned.items[1].role == .unknown("owner"))
        #expect(scanned.items[1].name.utf8.elementsEqual("Анна 佐藤 👩🏽‍💻 e\u{301} \u{2028}".utf8))
        #expect(scanned.page == 3 && scanned.perPage == 7 && scanned.total == 1234)
        let empty = Self.envelope([], total: "0")
        let scannedEmpty = try #require(PageScanner.page(in: Data(empty.utf8)))
        #expect(scannedEmpty == (try viaJSONDecoder(empty)))
    }

    @Test("any other layout is left to JSONDecoder, which still decodes it", arguments: [
        Self.plain.replacingOccurrences(of: #","page":"#, with: #", "page": "#),          // whitespace
        Self.plain + "\n",                                                                  // trailing newline
        Self.plain.replacingOccurrences(of: "Ada Lovelace", with: #"Ada \"Countess\""#),   // an escape
        Self.plain.replacingOccurrences(of: "Ada Lovelace", with: #"Ada\u0020Lovelace"#),  // a \u escape
        Self.plain.replacingOccurrences(of: #"{"id":"u1","name""#, with: #"{"name":"Ada","id":"u1","name""#), // duplicate/reordered key
        Self.plain.replacingOccurrences(of: #","total":1234"#, with: #","total":1234,"next":null"#), // an extra key
        Self.plain.replacingOccurrences(of: #""success":true,"data":{"items""#, with: #""data":{"items""#) + "", // success missing: fails in both
    ])
    func otherLayouts(body: String) throws {
        #expect(PageScanner.page(in: Data(body.utf8)) == nil)
        let client = try? WireFormat.decodeEnvelope(APIResponse<Page<User>>.self, from: Data(body.utf8), decoder: WireFormat.makeDecoder())
        let reference = try? WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: Data(body.utf8))
        #expect(client == reference)
    }

    @Test("numbers and timestamps it cannot read exactly are left to JSONDecoder", arguments: [
        Self.envelope([Self.object(id: "u", name: "A")], page: "01"),
        Self.envelope([Self.object(id: "u", name: "A")], total: "2.0"),
        Self.envelope([Self.object(id: "u", name: "A")], total: "-1"),
        Self.envelope([Self.object(id: "u", name: "A")], total: "99999999999999999999999"),
        Self.envelope([Self.object(id: "u", name: "A", created: "21/11/2025")]),
        Self.envelope([Self.object(id: "u", name: "tab\there")]),
    ])
    func unreadableValues(body: String) {
        #expect(PageScanner.page(in: Data(body.utf8)) == nil)
    }

    @Test("bytes that are not UTF-8 are refused by both readings")
    func invalidUTF8() {
        var body = Data(Self.envelope([Self.object(id: "u", name: "XX")]).utf8)
        let name = body.range(of: Data("XX".utf8))!
        body.replaceSubrange(name, with: [0xC3, 0x28])
        #expect(PageScanner.page(in: body) == nil)
        #expect((try? WireFormat.decodeEnvelope(APIResponse<Page<User>>.self, from: body, decoder: WireFormat.makeDecoder())) == nil)
    }

    @Test("other payloads are not touched")
    func otherPayloads() throws {
        let user = try WireFormat.decodeEnvelope(
            APIResponse<User>.self, from: Data(#"{"success":true,"data":\#(Self.object(id: "u", name: "A")),"error":null}"#.utf8),
            decoder: WireFormat.makeDecoder())
        #expect(user.data?.name == "A")
    }
}
