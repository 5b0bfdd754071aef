import Foundation
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing

/// The `Date` header, formatted when a response needs it rather than by a timer.
@Suite("The Date header")
struct HTTPDateTests {
    @Test("IMF-fixdate as RFC 9110 writes it, in GMT, two digits a field")
    func format() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: 1_795_822_199) == "Fri, 27 Nov 2026 23:29:59 GMT")
        #expect(HTTPDate.format(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
    }

    @Test("every answer carries now's date, as HTTP/1.1 asks of a server with a clock")
    func responsesCarryNow() async throws {
        try await withServer { server in
            let parser = DateFormatter()
            parser.locale = Locale(identifier: "en_US_POSIX")
            parser.timeZone = TimeZone(identifier: "GMT")
            parser.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            for path in ["api/v1/health", "api/v1/users", "nowhere"] {
                let before = Date().addingTimeInterval(-2)
                let answer = try await TestTransport.shared.send(TransportRequest(
                    method: .get, url: server.url.appendingPathComponent(path), headers: TestServer.authorization))
                let after = Date().addingTimeInterval(2)
                let header = try #require(answer.headers["Date"], "\(path): no Date")
                let date = try #require(parser.date(from: header), "\(path): \(header)")
                #expect(date >= before && date <= after, "\(path): \(header)")
            }
        }
    }
}
