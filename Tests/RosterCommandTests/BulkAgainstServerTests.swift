import Foundation
import RosterApp
import RosterKit
import RosterKitTestSupport
import RosterServer
import Testing

/// A bulk suspend driven through the app's models against the real server, over HTTP: marks
/// by hand and "all matching", and the server's own answer afterwards.
@Suite("Bulk actions against roster-server", .timeLimit(.minutes(5)))
@MainActor
struct BulkAgainstServerTests {
    @Test func suspendingMarkedAndAllMatchingUsersOnTheRealServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-bulk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await UserAPIServer.start(ServerConfiguration(
            databasePath: folder.appendingPathComponent("db.sqlite").path, token: "bulk-token", seedCount: 300))
        let repository = RosterAPIDirectory(client: APIClient(
            baseURL: server.url, token: "bulk-token", transport: TestTransport.shared, logger: LogRecorder().logger(level: .critical)))
        do {
            let app = AppModel(directory: repository, perPage: 20)
            app.setListViewport(height: 10)
            app.start()
            await app.activity.waitForLoads()

            // Three users marked by hand.
            app.cycleStatusFilter() // active
            await app.activity.waitForLoads()
            let active = try await repository.listUsers(UserQuery(perPage: 3, status: .active)).items
            for _ in 0..<3 { app.toggleMark() }
            #expect(app.list.marks.users.map(\.id) == active.map(\.id))
            app.toggleSuspended()
            app.confirm()
            await app.activity.waitForLoads()
            #expect(app.bulkRun?.progress.succeeded == 3)
            for user in active { #expect(try await repository.user(id: user.id).status == .suspended) }

            // Every active user, most of them on pages the list never loaded.
            let remaining = try await repository.listUsers(UserQuery(perPage: 1, status: .active)).total
            #expect(remaining > 100)
            app.markAllMatching()
            #expect(app.list.marks.count == remaining)
            app.toggleSuspended()
            app.confirm()
            await app.activity.waitForLoads()
            let run = try #require(app.bulkRun)
            #expect(run.progress.succeeded == remaining)
            #expect(run.progress.failed == 0)
            #expect(run.progress.requests == remaining + (remaining + 199) / 200, "a read per page of 200, a write per user")
            #expect(try await repository.listUsers(UserQuery(perPage: 1, status: .active)).total == 0)
            #expect(app.list.rowCount == 0, "the list was refreshed: nobody is active now")
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }
}
