import Foundation
import Testing
import RosterKit
import RosterKitTestSupport

@Suite("Mapping statuses to errors")
struct StatusMappingTests {
    /// What a client without retries makes of a response with this status and body.
    func error(status: Int, body: String = "", headers: HTTPHeaders = [:], contentType: String = "application/json") async -> APIError? {
        let client = makeClient(ScriptedTransportHolder.status(status, body: body, headers: headers, contentType: contentType), retry: .never)
        do {
            _ = try await RosterAPIDirectory(client: client).user(id: "u1")
            return nil
        } catch let error as APIError {
            return error
        } catch {
            Issue.record("not an APIError: \(error)")
            return nil
        }
    }

    static let envelopeBody = #"{"success":false,"data":null,"error":{"code":"c","message":"Server says no."}}"#
    static let serverBody = ErrorBody(code: "c", message: "Server says no.")

    @Test(arguments: [
        (400, APIError.badRequest(serverBody)),
        (401, .unauthorized(serverBody)),
        (403, .forbidden(serverBody)),
        (404, .notFound(serverBody)),
        (409, .conflict(serverBody)),
        (413, .payloadTooLarge(serverBody)),
        (415, .unsupportedMediaType(serverBody)),
        (422, .validationFailed(serverBody)),
        (429, .rateLimited(retryAfter: nil, serverBody)),
        (503, .serviceUnavailable(retryAfter: nil, serverBody)),
        (500, .serverError(status: 500, serverBody)),
        (502, .serverError(status: 502, serverBody)),
        (504, .serverError(status: 504, serverBody)),
        (418, .unexpectedStatus(status: 418, serverBody)),
        (302, .unexpectedStatus(status: 302, serverBody)),
    ])
    func everyStatusClassMapsToItsError(status: Int, expected: APIError) async {
        let error = await error(status: status, body: Self.envelopeBody)
        #expect(error == expected)
        #expect(error?.status == status)
        #expect(error?.errorDescription == "Server says no.")
    }

    @Test func retryabilityFollowsTheStatusClass() {
        #expect(APIError.serverError(status: 500, nil).isRetryable)
        #expect(APIError.rateLimited(retryAfter: nil, nil).isRetryable)
        #expect(APIError.serviceUnavailable(retryAfter: nil, nil).isRetryable)
        for error in [APIError.badRequest(nil), .unauthorized(nil), .forbidden(nil), .notFound(nil), .conflict(nil),
                      .validationFailed(nil), .payloadTooLarge(nil), .unexpectedStatus(status: 418, nil)] {
            #expect(!error.isRetryable, "\(error)")
        }
        for error in [APIError.offline, .cannotConnect(host: "h"), .timedOut, .connectionLost] {
            #expect(error.isRetryable, "\(error)")
        }
    }

    @Test func aNonJSONErrorPageGivesAPlainSentence() async {
        let error = await error(status: 502, body: "<html><body>Bad Gateway</body></html>", contentType: "text/html")
        #expect(error == .serverError(status: 502, nil))
        #expect(error?.errorDescription == "The server failed to handle the request (HTTP 502).")
        #expect(error?.recoverySuggestion == "Retry in a moment.")
    }

    @Test func validationErrorsCarryTheirFields() async {
        let body = #"{"success":false,"data":null,"error":{"code":"validation_failed","message":"Some fields are not valid.","fields":[{"field":"name","message":"Name is required."},{"field":"email","message":"Email must look like name@example.com."}]}}"#
        let error = await error(status: 422, body: body)
        #expect(error?.fieldErrors == [
            FieldError(field: "name", message: "Name is required."),
            FieldError(field: "email", message: "Email must look like name@example.com."),
        ])
    }

    @Test func aConflictCarriesItsFieldToo() async {
        let body = #"{"success":false,"data":null,"error":{"code":"email_taken","message":"Email taken.","fields":[{"field":"email","message":"This email is already taken."}]}}"#
        #expect(await error(status: 409, body: body)?.fieldErrors == [FieldError(field: "email", message: "This email is already taken.")])
    }

    @Test func retryAfterIsReadInSecondsOrAsADate() async {
        #expect(await error(status: 429, headers: ["Retry-After": "7"])?.retryAfter == .seconds(7))
        #expect(await error(status: 503, headers: ["retry-after": "1"])?.retryAfter == .seconds(1))
        let now = Date(timeIntervalSince1970: 1_763_717_400)
        #expect(RetryAfter.parse("Fri, 21 Nov 2025 09:30:45 GMT", now: now) == .seconds(45))
        #expect(RetryAfter.parse("Fri, 21 Nov 2025 09:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("soon") == nil)
        #expect(RetryAfter.parse("-3") == nil)
    }

    @Test func theUnauthorizedMessageSaysHowToGiveAToken() async {
        let error = await error(status: 401)
        #expect(error == .unauthorized(nil))
        #expect(error?.recoverySuggestion?.contains("--token") == true)
        #expect(error?.recoverySuggestion?.contains("ROSTER_TOKEN") == true)
    }

    @Test func everyErrorHasASentence() {
        let all: [APIError] = [
            .offline, .cannotConnect(host: "h:1"), .timedOut, .connectionLost, .responseTooLarge(limitBytes: 1024),
            .transportFailed("x"), .invalidRequest("x"), .badRequest(nil), .unauthorized(nil), .forbidden(nil),
            .notFound(nil), .conflict(nil), .payloadTooLarge(nil), .unsupportedMediaType(nil), .validationFailed(nil),
            .rateLimited(retryAfter: .seconds(2), nil), .serviceUnavailable(retryAfter: .seconds(1), nil),
            .serverError(status: 500, nil), .unexpectedStatus(status: 418, nil),
            .decodingFailed(DecodingFailure(path: "a", reason: "is missing", rawBody: "")),
            .unsuccessfulResponse(nil), .missingData,
        ]
        for error in all {
            let sentence = error.errorDescription ?? ""
            #expect(sentence.count > 10 && sentence.hasSuffix("."), "\(error): \(sentence)")
        }
        #expect(APIError.serviceUnavailable(retryAfter: .seconds(1), nil).errorDescription
            == "The server is temporarily unavailable; it asks to wait 1 second.")
    }
}
