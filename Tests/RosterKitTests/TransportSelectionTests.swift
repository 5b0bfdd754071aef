import Foundation
import RosterKit
import Testing

@Suite struct TransportSelectionTests {
    @Test func plainHTTPUsesTheSocketTransport() {
        #expect(TransportSelection.transport(for: URL(string: "http://127.0.0.1:8080/")!) is SocketTransport)
        #expect(TransportSelection.transport(for: URL(string: "HTTP://example.test/roster/")!) is SocketTransport)
    }

    @Test func httpsUsesURLSession() {
        #expect(TransportSelection.transport(for: URL(string: "https://example.test/roster/")!) is URLSessionTransport)
    }
}
