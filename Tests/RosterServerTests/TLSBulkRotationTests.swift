import Foundation
import RosterApp
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A certificate rotation in the middle of a real Roster bulk run: the app's own bulk
/// machinery (`AppModel`, "all matching", suspend) against roster-server over HTTPS, with
/// SIGHUP and a new certificate from the throwaway authority while the writes go.
extension TLSTests {
    @Test("SIGHUP with a new certificate during a Roster bulk run: every user suspended exactly once, no failure, new connections get the new certificate")
    func rotationDuringBulkRun() async throws {
        let ca = try TestCA.make()
        defer { ca.remove() }
        let files = try ca.issue("server", commonName: "roster-server before")
        let database = ca.directory.appendingPathComponent("users.sqlite").path
        let server = try ServerProcess(arguments: [
            "--port", "0", "--database", database, "--token", "tls-token", "--log-level", "notice", "--seed", "1200",
            "--tls-cert", files.certificate, "--tls-key", files.key])
        let url = try await server.waitForListening()
        let port = try #require(url.port)

        let active = try await TestTransport.with(TransportOptions(connectTimeout: .seconds(30), caFile: ca.certificatePath)) { transport in
            let directory = RosterAPIDirectory(client: APIClient(baseURL: url, token: "tls-token", transport: transport, logger: quietLogger))
            let active = try await directory.listUsers(UserQuery(perPage: 1, status: .active)).total
            #expect(active > 500)
            // Once a fifth of the writes are answered: a new certificate, and SIGHUP.
            let rotatedAt = try await Self.suspendEveryActiveUser(directory, expected: active, rotatingAfter: active / 5) {
                try ca.issue("server", commonName: "roster-server after")
                server.signal(SIGHUP)
            }
            let rotatedMidRun = try #require(rotatedAt, "the run ended before the rotation")
            #expect(rotatedMidRun < active * 3 / 4, "the rotation came with writes still to send: \(rotatedMidRun) of \(active)")
            #expect(try await directory.listUsers(UserQuery(perPage: 1, status: .active)).total == 0)
            return active
        }
        #expect(await eventually { server.stderr.contains("certificate and key read again") }, "\(server.stderr)")

        // The server's own record: one update per user, active → suspended.
        let store = try SQLiteStore(path: database)
        var updates: [AuditEntry] = []
        var before: Int64?
        while true {
            let page = try await store.auditEntries(AuditQuery(resource: "user", action: "update", before: before, limit: AuditQuery.maximumLimit))
            updates += page
            guard let last = page.last, page.count == AuditQuery.maximumLimit else { break }
            before = last.seq
        }
        let perUser = Dictionary(grouping: updates, by: \.resourceID)
        #expect(perUser.count == active && perUser.values.allSatisfy { $0.count == 1 }, "each user changed exactly once")
        #expect(updates.allSatisfy { $0.changes == [FieldChange(field: "status", before: "active", after: "suspended")] })

        let rotated = await eventually(within: .seconds(10)) {
            let probe = try? await TLSProbe.probe(host: "127.0.0.1", port: port, caFile: ca.certificatePath, timeout: .seconds(10))
            return probe?.subject.contains("roster-server after") == true && probe?.trustProblem == nil
        }
        #expect(rotated, "new connections get the new certificate")
        #expect(server.process.isRunning, "SIGHUP does not stop the server")
        server.signal(SIGTERM)
        _ = await server.waitForExit()
    }

    /// Roster's bulk run as a person drives it: the active filter, "all matching", suspend,
    /// confirm; `rotate` runs once `rotatingAfter` writes are answered. Answers how many were
    /// answered then (nil if the run ended first), after checking the run's own account.
    @MainActor
    static func suspendEveryActiveUser(
        _ directory: RosterAPIDirectory, expected: Int, rotatingAfter threshold: Int, rotate: @escaping @Sendable () throws -> Void
    ) async throws -> Int? {
        let app = AppModel(directory: directory, perPage: 20)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        app.cycleStatusFilter() // active
        await app.activity.waitForLoads()
        app.markAllMatching()
        #expect(app.list.marks.count == expected)
        app.toggleSuspended()
        app.confirm()
        let rotation = Task { @MainActor () throws -> Int? in
            while !Task.isCancelled {
                let done = app.bulkRun?.progress.succeeded ?? 0
                if done >= threshold {
                    try rotate()
                    return done
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return nil
        }
        await app.activity.waitForLoads()
        rotation.cancel()
        let rotatedAt = try await rotation.value
        let run = try #require(app.bulkRun)
        #expect(run.progress.succeeded == expected)
        #expect(run.progress.failed == 0)
        #expect(run.failures.isEmpty, "\(run.failures)")
        #expect(run.progress.requests == expected + (expected + 199) / 200, "a read per page of 200, a write per user: nothing sent twice")
        return rotatedAt
    }
}
