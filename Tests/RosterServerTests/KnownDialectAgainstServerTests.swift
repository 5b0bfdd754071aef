import Foundation
import NIOConcurrencyHelpers
import RosterKit
import RosterKitTestSupport
import Testing

/// The paths of the requests that reached a real roster-server.
private final class PathRecordingTransport: HTTPTransport {
    let paths = NIOLockedValueBox<[String]>([])

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        paths.withLockedValue { $0.append(request.url.path) }
        return try await TestTransport.shared.send(request)
    }
}

/// `--api auto` against a real roster-server with the dialect it spoke last time
/// (`KnownDialects`): the first list goes out alone; a wrong entry is corrected by the probe.
@Suite("The dialect as last time, against roster-server")
struct KnownDialectAgainstServerTests {
    @Test("the Roster API as last time: one request, the first list, and nothing to keep")
    func rightGuess() async throws {
        try await withServer(seedCount: 60) { server in
            let transport = PathRecordingTransport()
            let found = NIOLockedValueBox<[Dialect]>([])
            let directory = RemoteDirectory(client: server.client(transport: transport), choice: .auto, lastFound: .roster) { dialect in
                found.withLockedValue { $0.append(dialect) }
            }
            let page = try await directory.listUsers(UserQuery(page: 1, perPage: 50))
            #expect(page.items.count == 50 && page.total == 60)
            #expect(await directory.dialect == .roster)
            #expect(transport.paths.withLockedValue { $0 } == ["/api/v1/users"])
            #expect(found.withLockedValue { $0 }.isEmpty)
        }
    }

    @Test("SCIM as last time at the Roster API's address: the probe decides, and the Roster API is kept")
    func wrongGuess() async throws {
        try await withServer(seedCount: 60) { server in
            let transport = PathRecordingTransport()
            let found = NIOLockedValueBox<[Dialect]>([])
            let directory = RemoteDirectory(client: server.client(transport: transport), choice: .auto, lastFound: .scim) { dialect in
                found.withLockedValue { $0.append(dialect) }
            }
            let page = try await directory.listUsers(UserQuery(page: 1, perPage: 50))
            #expect(page.items.count == 50 && page.total == 60)
            #expect(await directory.dialect == .roster)
            #expect(found.withLockedValue { $0 } == [.roster])
            #expect(transport.paths.withLockedValue { $0 }.contains("/api/v1/health"), "the probe went out")
        }
    }
}
