import Foundation
import RosterCSV
import RosterKit
import Testing

/// CSV out and in, through the real binaries in tmux. An extension of the serialized
/// end-to-end suite, so these never run beside its other scenarios.
extension EndToEndTests {
    @Test func exportingTheFilteredListWritesWhatTheAPIListsToTheFile() async throws {
        let server = try await ServerProcess(seed: 300)
        defer { server.stop() }
        let active = try await server.repository.listUsers(UserQuery(perPage: 200, status: .active))
        var expected = active.items
        if active.total > 200 { expected += try await server.repository.listUsers(UserQuery(page: 2, perPage: 200, status: .active)).items }
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 300")

        try session.tmux.send("t") // every user → active
        try await session.tmux.waitFor("1 / \(String.grouped(active.total)) ")
        try session.tmux.send("x")
        try await session.tmux.waitFor("Export to: ./roster-users-")
        let path = server.directory.appendingPathComponent("active users.csv").path
        try session.tmux.send("C-u")
        try session.tmux.type(path)
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("Exported \(String.grouped(active.total)) users")

        let encoder = UserCSVEncoder()
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(file == encoder.header + encoder.records(for: expected))
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))

        // Again to the same name: it asks before replacing.
        try session.tmux.send("Enter", "x")
        try await session.tmux.waitFor("Export to:")
        try session.tmux.send("C-u")
        try session.tmux.type(path)
        try session.tmux.send("Enter")
        try await session.tmux.waitFor("already exists. Replace it with the export?")
        try session.tmux.send("n")
        try await session.tmux.waitFor("Export to: \(server.directory.path)")
    }

    @Test func importingFiftyRowsWithTwoBadOnesPreviewsCreatesFortyEightAndWritesTheReport() async throws {
        let server = try await ServerProcess(seed: 0)
        defer { server.stop() }
        var lines = ["name,email,role,status"]
        for number in 1...50 {
            switch number + 1 {
            case 6: lines.append("Bad Email,not-an-email,member,active")
            case 21: lines.append("Twin,hire01@example.com,viewer,")
            default: lines.append("Hire \(number),hire\(number < 10 ? "0" : "")\(number)@example.com,member,invited")
            }
        }
        let input = server.directory.appendingPathComponent("hires.csv")
        try (lines.joined(separator: "\r\n") + "\r\n").write(to: input, atomically: true, encoding: .utf8)
        let session = try await Self.previewImport(of: input, on: server)
        let preview = try await session.tmux.waitFor("48 new · 0 changed · 0 unchanged · 2 bad (not sent)")
        #expect(preview.contains("invalid email “not-an-email”"), "\(preview)")
        #expect(preview.contains("duplicate email: also on line 2"), "\(preview)")
        #expect(try await server.repository.listUsers(UserQuery()).total == 0, "the preview sends nothing")

        try session.tmux.send("Enter")
        let done = try await session.tmux.waitFor("Import hires.csv — done")
        #expect(done.contains("48 created"))
        #expect(try await server.repository.listUsers(UserQuery()).total == 48)
        let reports = try FileManager.default.contentsOfDirectory(atPath: server.directory.path)
            .filter { $0.hasPrefix("hires.import-report-") && $0.hasSuffix(".csv") }
        #expect(reports.count == 1)
        let report = try String(contentsOf: server.directory.appendingPathComponent(reports[0]), encoding: .utf8)
        #expect(report.components(separatedBy: ",created,").count - 1 == 48)
        #expect(report.contains("6,not-an-email,\"invalid, not sent\""))
        #expect(done.contains(reports[0]), "the screen names the report")
    }

    @Test func aGoogleWorkspaceFileIsImportedWithOneColumnMappedByHandInThePreview() async throws {
        let server = try await ServerProcess(seed: 0)
        defer { server.stop() }
        let input = server.directory.appendingPathComponent("google.csv")
        try ("First Name [Required],Last Name [Required],Email Address [Required],Password [Required],Org Unit Path [Required],Access\r\n"
            + "Ana,Silva,ana@example.com,Secret-1!,/,admin\r\n"
            + "Bo,Berg,bo@example.com,Secret-2!,/,viewer\r\n"
            + "Cy,Cole,cy@example.com,Secret-3!,/,member\r\n").write(to: input, atomically: true, encoding: .utf8)
        let session = try await Self.previewImport(of: input, on: server)
        let preview = try await session.tmux.waitFor("3 new · 0 changed · 0 unchanged")
        #expect(preview.contains("Ignored columns: Password [Required], Org Unit Path [Required], Access"), "\(preview)")
        #expect(preview.contains("Ana Silva"), "first and last name joined: \(preview)")

        // m: the cursor starts on Password (the first column not placed); Access is two below.
        try session.tmux.send("m")
        try await session.tmux.waitFor("map the columns")
        try session.tmux.send("j", "j", "l", "l", "l") // ignored → name → login (first, last, email are taken) → role
        try await session.tmux.waitFor("→ role")
        try session.tmux.send("Enter")
        try await session.tmux.waitForScreen("the preview with Access as the role") {
            $0.contains("3 new · 0 changed · 0 unchanged") && $0.contains("Ignored columns: Password [Required], Org Unit Path [Required]")
                && !$0.contains("Org Unit Path [Required], Access")
        }
        #expect(try await server.repository.listUsers(UserQuery()).total == 0, "the preview sends nothing")

        try session.tmux.send("Enter")
        let done = try await session.tmux.waitFor("Import google.csv — done")
        #expect(done.contains("3 created"), "\(done)")
        let users = try await server.repository.listUsers(UserQuery(sort: .email)).items
        #expect(users.map(\.name) == ["Ana Silva", "Bo Berg", "Cy Cole"])
        #expect(users.map(\.role) == [.admin, .viewer, .member], "the column mapped by hand")
    }

    /// `roster` on an empty server, `i` and the file's path: its import preview opens.
    private static func previewImport(of file: URL, on server: ServerProcess) async throws -> RosterSession {
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("No users yet")
        try session.tmux.send("i")
        try await session.tmux.waitFor("Import from:")
        try session.tmux.type(file.path)
        try session.tmux.send("Enter")
        return session
    }
}
