import Foundation
import RosterKitTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster for one test (scripts/lib/postgres.sh), to run a real
/// `roster-server` on (`ServerProcess(database: cluster.url)`) and to restart under it. A
/// detached watcher stops it and deletes its folder when this process ends, however it ends.
final class PostgresCluster {
    /// `postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable`: the same after a restart.
    let url: String
    private let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-e2e-pg-\(UUID().uuidString)").path
        // Watched before it starts: a test process that dies meanwhile leaves nothing either.
        // `setsid -f`: in a session of its own, so it outlives this process.
        _ = try Self.script(["watch", String(getpid()), folder], prefix: ["setsid", "-f"])
        // Durable: a commit it acknowledged survives `restart()` (the suites' clusters lose the
        // last ones, synchronous_commit off, which a test of a crash would take for a lost write).
        let output = try Self.script(["start", folder, "durable"])
        guard let url = PostgresScript.clusterURL(in: output) else {
            throw EndToEndError("scripts/lib/postgres.sh start printed no cluster URL: \(output)")
        }
        self.url = url
    }

    /// `pg_ctl restart -m immediate`, as after a crash of the database: every connection is cut
    /// at once, nothing is checkpointed, and it starts again on the same port (crash recovery).
    func restart() throws {
        _ = try Self.script(["restart", folder])
    }

    func stop() {
        _ = try? Self.script(["stop", folder])
    }

    deinit { stop() }

    private static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/lib/postgres.sh").path
    }

    private static func script(_ arguments: [String], prefix: [String] = []) throws -> String {
        let (status, output) = try Subprocess.run(prefix + ["bash", path] + arguments)
        guard status == 0 else { throw EndToEndError("scripts/lib/postgres.sh \(arguments[0]) failed (\(status)): \(output)") }
        return output
    }
}
