import Foundation
import Testing
import RosterKit
import RosterKitTestSupport

@Suite("Decoding responses")
struct DecodingTests {
    func fetchUser(_ body: String, status: Int = 200) async throws -> User {
        try await RosterAPIDirectory(client: makeClient(ScriptedTransportHolder.ok(body, status: status))).user(id: "u1")
    }

    func decodingFailure(_ body: String) async -> DecodingFailure? {
        do {
            _ = try await fetchUser(body)
            return nil
        } catch APIError.decodingFailed(let failure) {
            return failure
        } catch {
            Issue.record("expected a decoding failure, got \(error)")
            return nil
        }
    }

    @Test func aGoodUserDecodesWithBothTimestampForms() async throws {
        let user = try await fetchUser(envelope(sampleUserJSON))
        #expect(user == sampleUser)
        #expect(user.createdAt == Date(timeIntervalSince1970: 1_763_717_400))
        #expect(user.updatedAt == Date(timeIntervalSince1970: 1_763_717_400.5))
    }

    @Test func aPageDecodesWithItsCounts() async throws {
        let body = envelope(#"{"items":[\#(sampleUserJSON)],"page":2,"per_page":1,"total":7}"#)
        let page = try await RosterAPIDirectory(client: makeClient(ScriptedTransportHolder.ok(body))).listUsers(UserQuery(page: 2, perPage: 1))
        #expect(page == Page(items: [sampleUser], page: 2, perPage: 1, total: 7))
        #expect(page.pageCount == 7)
    }

    @Test func anUnknownRoleOrStatusStillDecodesWithItsRawValue() async throws {
        let odd = sampleUserJSON.replacingOccurrences(of: #""role":"admin""#, with: #""role":"owner""#)
            .replacingOccurrences(of: #""status":"active""#, with: #""status":"archived""#)
        let body = envelope(#"{"items":[\#(sampleUserJSON),\#(odd)],"page":1,"per_page":50,"total":2}"#)
        let page = try await RosterAPIDirectory(client: makeClient(ScriptedTransportHolder.ok(body))).listUsers(UserQuery())
        #expect(page.items.count == 2)
        #expect(page.items[1].role == .unknown("owner"))
        #expect(page.items[1].role.rawValue == "owner")
        #expect(page.items[1].status == .unknown("archived"))
    }

    @Test func aMissingFieldNamesItsPath() async throws {
        let body = envelope(sampleUserJSON.replacingOccurrences(of: #""email":"ana@example.com","#, with: ""))
        let failure = try #require(await decodingFailure(body))
        #expect(failure.path == "data.email")
        #expect(failure.reason == "is missing")
        #expect(APIError.decodingFailed(failure).errorDescription == "The server's answer could not be read: the field “data.email” is missing.")
    }

    @Test func aWrongTypeInsideAPageNamesTheRow() async throws {
        let bad = sampleUserJSON.replacingOccurrences(of: #""name":"Ana Silva""#, with: #""name":42"#)
        let body = envelope(#"{"items":[\#(sampleUserJSON),\#(bad)],"page":1,"per_page":50,"total":2}"#)
        do {
            _ = try await RosterAPIDirectory(client: makeClient(ScriptedTransportHolder.ok(body))).listUsers(UserQuery())
            Issue.record("expected a failure")
        } catch APIError.decodingFailed(let failure) {
            #expect(failure.path == "data.items[1].name")
            #expect(failure.reason == "is not a string")
            #expect(failure.rawBody.contains(#""name":42"#))
        }
    }

    @Test func aMalformedTimestampIsADecodingFailureOfThatField() async throws {
        let body = envelope(sampleUserJSON.replacingOccurrences(of: "2025-11-21T09:30:00Z", with: "21/11/2025"))
        let failure = try #require(await decodingFailure(body))
        #expect(failure.path == "data.created_at")
    }

    @Test func aBodyThatIsNotJSONSaysSo() async throws {
        let failure = try #require(await decodingFailure("<html>hello</html>"))
        #expect(failure.path == "")
        #expect(failure.reason == "is not valid JSON")
        #expect(failure.rawBody == "<html>hello</html>")
    }

    @Test func theRawBodyKeptForTheLogIsBounded() async throws {
        let failure = try #require(await decodingFailure(String(repeating: "x", count: 100_000)))
        #expect(failure.rawBody.utf8.count == DecodingFailure.rawBodyLimit)
    }

    @Test func successFalseOn200IsAnUnsuccessfulResponseWithTheServersWords() async throws {
        let body = #"{"success":false,"data":null,"error":{"code":"nope","message":"Directory is read-only."}}"#
        await #expect(throws: APIError.unsuccessfulResponse(ErrorBody(code: "nope", message: "Directory is read-only."))) {
            try await fetchUser(body)
        }
    }

    @Test func nullDataWhereDataIsRequiredIsMissingData() async throws {
        await #expect(throws: APIError.missingData) {
            try await fetchUser(#"{"success":true,"data":null,"error":null}"#)
        }
    }

    @Test func theEnvelopeEncodesNullsExplicitly() throws {
        let data = try WireFormat.makeEncoder().encode(APIResponse<EmptyPayload>.failure(ErrorBody(code: "c", message: "m")))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["success"] as? Bool == false)
        #expect(object["data"] is NSNull)
        #expect(object.keys.sorted() == ["data", "error", "success"])
    }

    @Test func usersRoundTripThroughTheWireFormatByteForByte() throws {
        let names = ["Ana Silva", "Zoë Ångström", "Дмитрий Иванов", "Ελένη", "محمد علي", "אורי כהן", "अनिता", "王小明", "山田太郎", "김민준", "🦊 Fox"]
        for name in names {
            let user = User.fixture(name: name)
            let decoded = try WireFormat.makeDecoder().decode(User.self, from: WireFormat.makeEncoder().encode(user))
            #expect(decoded == user)
            #expect(Array(decoded.name.utf8) == Array(name.utf8))
        }
    }
}

@Suite("ISO 8601 timestamps")
struct ISO8601TimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2025-11-21T09:30:00Z", 1_763_717_400.0),
        ("2025-11-21T09:30:00.5Z", 1_763_717_400.5),
        ("2025-11-21T09:30:00.123456Z", 1_763_717_400.123456),
        ("2025-11-21T10:30:00+01:00", 1_763_717_400.0),
        ("2025-11-21T04:00:00-0530", 1_763_717_400.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func parses(_ text: String, _ seconds: Double) throws {
        let date = try #require(ISO8601Timestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(arguments: ["", "2025-11-21", "2025-11-21T09:30:00", "2025-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
                      "2025-11-21T24:00:00Z", "2025-11-21T09:30:00.Z", "2025-11-21T09:30:00Zjunk", "21/11/2025"])
    func rejects(_ text: String) {
        #expect(ISO8601Timestamp.parse(text) == nil)
    }

    @Test func formatsInUTCWithMillisecondsAndRoundTrips() throws {
        let date = Date(timeIntervalSince1970: 1_763_717_400.25)
        #expect(ISO8601Timestamp.format(date) == "2025-11-21T09:30:00.250Z")
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        // 1.123 is stored as 1.12299999…: written as .123, not .122.
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: 1_763_717_401.123)) == "2025-11-21T09:30:01.123Z")
        let once = try #require(ISO8601Timestamp.parse("2025-11-21T09:30:01.123Z"))
        #expect(ISO8601Timestamp.format(once) == "2025-11-21T09:30:01.123Z")
        for seconds in stride(from: -100_000_000.0, to: 4_000_000_000.0, by: 86_399.123) {
            let rounded = (seconds * 1000).rounded() / 1000
            let parsed = try #require(ISO8601Timestamp.parse(ISO8601Timestamp.format(Date(timeIntervalSince1970: seconds))))
            #expect(abs(parsed.timeIntervalSince1970 - rounded) < 0.000_01)
        }
    }
}
