import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// The database under the server failing, not the server: roster-server on PostgreSQL, the
/// cluster restarted as after a crash in the middle of a bulk run.
extension ChaosTests {
    @Test func theDatabaseRestartedUnderABulkRunWritesEachUserOnce() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let server = try await ServerProcess(seed: 300, database: cluster.url, extraArguments: ["--latency", "60"])
        defer { server.stop() }
        let before = try await server.repository.listUsers(UserQuery(perPage: 50)).items
        let session = try RosterSession(server: server)
        try await session.suspendFiftyUntilAFifthIsDone()
        // Every connection of the server's pool is cut, writes in flight among them; the
        // database is back (crash recovery done) when `restart` returns.
        let cut = Date()
        try cluster.restart()
        let back = Date()

        let retries = try await session.finishTheRunRetryingFailures()
        #expect(server.isRunning, "roster-server outlived its database's restart")

        var written = 0
        var times: [Date] = []
        for user in before {
            #expect(try await server.repository.user(id: user.id).status == .suspended, "\(user.name) is suspended")
            let writes = try await server.repository.history(ofUser: user.id).filter { $0.action == "update" }
            // Once each, but not those the seed made suspended already.
            let wanted = user.status == .suspended ? 0 : 1
            #expect(writes.count == wanted, "\(user.name) written \(writes.count) times, not \(wanted)")
            written += writes.count
            times += writes.map(\.at)
        }
        // The run went on through the restart: writes before it and after it.
        #expect(times.contains { $0 < cut } && times.contains { $0 > back }, "the restart fell mid-run")
        #expect(written == before.filter { $0.status != .suspended }.count)
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 300, "no user added or lost")

        // The tally of the run and of each retry (the log's "bulk run finished" lines): the
        // users it says it changed are the writes the server holds, and each user is counted.
        let tallies = try BulkTally.read(from: server.directory.appendingPathComponent("state/roster/roster.log"))
        #expect(tallies.count == retries + 1, "a line for the run and each retry: \(tallies)")
        #expect(tallies.map(\.changed).reduce(0, +) == written, "\(tallies)")
        #expect(tallies.first?.total == 50)
        #expect(tallies.last?.failed == 0, "\(tallies)")
        let log = try String(contentsOf: server.directory.appendingPathComponent("state/roster/roster.log"), encoding: .utf8)
        let resent = log.split(separator: "\n").filter { $0.contains("retrying PUT") }.count
        print("database restart under a bulk run: down \(Int(back.timeIntervalSince(cut) * 1000)) ms, \(resent) PUTs resent by the client, "
            + "\(times.filter { $0 < cut }.count) writes before and \(times.filter { $0 > back }.count) after, \(retries) retries with r; tallies \(tallies)")
    }
}

/// What one "bulk run finished: suspending, 50 of 50 users (48 changed, 0 already suspended, 2
/// failed, 0 not started), …" line of roster's log says (`BulkRun.logLine`).
struct BulkTally: CustomStringConvertible {
    var total: Int
    var changed: Int
    var unchanged: Int
    var failed: Int

    var description: String { "\(changed) changed, \(unchanged) unchanged, \(failed) failed of \(total)" }

    static func read(from log: URL) throws -> [BulkTally] {
        let pattern = #/bulk run finished: [^,]+, \d+ of (\d+) users \((\d+) changed, (\d+) [^,]+, (\d+) failed/#
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let match = try pattern.firstMatch(in: line) else { return nil }
            return BulkTally(total: Int(match.1) ?? -1, changed: Int(match.2) ?? -1, unchanged: Int(match.3) ?? -1, failed: Int(match.4) ?? -1)
        }
    }
}
