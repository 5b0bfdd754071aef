import Foundation
import RosterKitTestSupport
@testable import RosterServer
#if canImport(Glibc)
import Glibc
#endif

/// The throwaway PostgreSQL cluster of this test process (scripts/lib/postgres.sh), started on
/// first use, with a fresh database per test. A detached watcher stops the cluster and deletes
/// its folder as soon as this process ends, however it ends (a failed test, a crash, a kill).
actor TestPostgres {
    static let shared = TestPostgres()

    private var started: Task<String, any Error>?

    /// The script, found from this file's place in the package.
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/lib/postgres.sh").path
    }

    private var template: Task<String, any Error>?

    /// The URL of a new database on the cluster with no user in it: with the schema up to date
    /// (a copy of a template migrated once per test process: migrating each of some hundred
    /// databases took over 30 s apiece with the whole suite running), or empty when not `migrated`.
    func createDatabase(migrated: Bool = true) async throws -> (url: String, name: String) {
        let cluster = try await clusterURL()
        let name = "roster_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        if migrated {
            let template = try await migratedTemplate(on: cluster)
            // The template's last connection may still be closing on the server side: then
            // CREATE DATABASE says it is in use, and a moment later it is not.
            var attempt = 0
            while true {
                do {
                    _ = try await Self.run(["createdb", cluster, name, template])
                    break
                } catch where attempt < 50 {
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
        } else {
            _ = try await Self.run(["createdb", cluster, name])
        }
        return (try Self.url(of: name, on: cluster), name)
    }

    private func migratedTemplate(on cluster: String) async throws -> String {
        if let template { return try await template.value }
        let task = Task<String, any Error> {
            let name = "roster_template"
            _ = try await Self.run(["createdb", cluster, name])
            let database = try await PostgresDatabase.open(url: try Self.url(of: name, on: cluster), logger: quietLogger)
            await database.close()
            return name
        }
        template = task
        return try await task.value
    }

    private static func url(of database: String, on cluster: String) throws -> String {
        guard var components = URLComponents(string: cluster) else { throw ScriptFailed(output: "bad URL \(cluster)") }
        components.path = "/" + database
        return components.string ?? cluster
    }

    func dropDatabase(named name: String) async throws {
        _ = try await Self.run(["dropdb", try await clusterURL(), name])
    }

    private func clusterURL() async throws -> String {
        if let started { return try await started.value }
        let task = Task<String, any Error> {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-pg-\(UUID().uuidString)").path
            // Watched before it starts: a process that dies while the cluster starts leaves nothing either.
            try Self.watch(folder: folder)
            let output = try await Self.run(["start", folder])
            guard let url = PostgresScript.clusterURL(in: output) else {
                throw ScriptFailed(output: "no cluster URL in: \(output)")
            }
            return url
        }
        started = task
        return try await task.value
    }

    /// Starts `postgres.sh watch` in a session of its own, so it outlives this process.
    private static func watch(folder: String) throws {
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        watcher.arguments = ["bash", script, "watch", String(getpid()), folder]
        watcher.standardInput = FileHandle.nullDevice
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
    }

    struct ScriptFailed: Error, CustomStringConvertible {
        var output: String
        var description: String { "scripts/lib/postgres.sh failed: \(output)" }
    }

    /// Runs the script and returns its standard output; throws with its output when it fails.
    /// Waits without holding a thread: the test process has as few as two for every test.
    private static func run(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script] + arguments
        // A file, not a pipe: the cluster's server inherits nothing that would keep a pipe open,
        // and the output is read once the script has ended.
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("roster-pg-script-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { ended in continuation.resume(returning: ended.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try? output.close()
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        guard status == 0 else { throw ScriptFailed(output: text) }
        return text
    }
}
