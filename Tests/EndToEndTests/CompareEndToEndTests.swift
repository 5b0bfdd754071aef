import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// `roster compare SOURCE TARGET --report FILE.csv` as a cron job runs it: the real binary
/// against two real roster-servers named in a profile file, no terminal. Exit 1 while a leaver
/// has access, 0 once they are suspended on the target, 2 with one sentence when a side cannot
/// be reached; the report is CSV, 0600, one row per finding. An extension of the serialized
/// end-to-end suite.
extension EndToEndTests {
    @Test func compareWritesTheReportAndExitsOneWhileLeaversHaveAccess() async throws {
        let hr = try await ServerProcess()
        let saas = try await ServerProcess()
        defer { hr.stop(); saas.stop() }
        let source = hr.repository
        let target = saas.repository
        let gone = try await source.createUser(UserDraft(name: "Léa Départ", email: "lea@example.com"))
        _ = try await source.updateUser(id: gone.id, with: UserDraft(name: gone.name, email: gone.email, status: .suspended))
        _ = try await source.createUser(UserDraft(name: "Sam Stays", email: "Sam@Example.com"))
        let account = try await target.createUser(UserDraft(name: "Léa Départ", email: "LEA@example.com"))
        _ = try await target.createUser(UserDraft(name: "Sam Stays", email: "sam@example.com"))
        _ = try await target.createUser(UserDraft(name: "=HYPERLINK(\"x\")", email: "orphan@example.com", status: .suspended))
        let refusing = try RefusingPort()

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("roster-compare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let config = home.appendingPathComponent("roster.json").path
        try """
            {
              connections: {
                hr: { server: "\(hr.url.absoluteString)", api: "roster", token: "\(hr.token)" },
                saas: { server: "\(saas.url.absoluteString)", token: "\(saas.token)" },
                down: { server: "http://127.0.0.1:\(refusing.port)/", api: "roster", token: "x", connectTimeoutSeconds: 1, requestTimeoutSeconds: 2 },
              },
            }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let roster = try BuiltProducts.url(of: "roster").path
        let environment = ["HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "XDG_DATA_HOME": home.path + "/data"]
        let report = home.path + "/review.csv"

        let first = try Subprocess.run([roster, "compare", "hr", "saas", "--config", config, "--report", report], environment: environment)
        #expect(first.status == 1, "\(first.output)")
        #expect(first.output.contains("Leavers: 1") && first.output.contains("Report: \(report) (2 rows)"), "\(first.output)")
        let rows = try String(contentsOfFile: report, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 3, "\(rows)")
        #expect(rows.dropFirst().first?.hasPrefix("leavers,lea@example.com,,\(gone.id),Léa Départ,lea@example.com,member,suspended,\(account.id),Léa Départ,LEA@example.com,member,active") == true, "\(rows)")
        #expect(rows.last?.hasPrefix("only-in-target,orphan@example.com,,,,,,,") == true && rows.last?.contains("\"'=HYPERLINK(\"\"x\"\")\"") == true, "\(rows)")
        let mode = try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        _ = try await target.updateUser(id: account.id, with: UserDraft(name: account.name, email: account.email, status: .suspended))
        let second = try Subprocess.run([roster, "compare", "hr", "saas", "--config", config, "--report", report], environment: environment)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("Leavers: 0"), "\(second.output)")

        let failed = try Subprocess.run([roster, "compare", "hr", "down", "--config", config, "--report", home.path + "/never.csv"], environment: environment)
        #expect(failed.status == 2, "\(failed.output)")
        #expect(failed.output.hasPrefix("roster compare: ") && failed.output.split(separator: "\n").count == 1, "\(failed.output)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/never.csv"))
        let unknown = try Subprocess.run([roster, "compare", "hr", "nobody", "--config", config], environment: environment)
        #expect(unknown.status == 2 && unknown.output.contains("There is no profile “nobody”"), "\(unknown.output)")
    }
}
