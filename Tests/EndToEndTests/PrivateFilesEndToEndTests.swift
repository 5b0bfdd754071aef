import Foundation
import RosterKitTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Roster's files after a first start as `make run` does it (no server named: the embedded
/// one, a new database): folders 0700, files 0600; loosened ones from before are tightened,
/// with a line in the log. An extension of the serialized end-to-end suite.
extension EndToEndTests {
    @Test func aFirstStartLeavesOnlyPrivateFoldersAndFiles() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("roster-private-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        // A configuration folder and file made before, readable by everyone.
        try FileManager.default.createDirectory(atPath: home + "/config/roster", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try #"{ "embedded": { "seedUsers": 20 } }"#.write(toFile: home + "/config/roster/roster.json", atomically: true, encoding: .utf8)
        chmod(home + "/config/roster/roster.json", 0o644)
        let roster = try BuiltProducts.url(of: "roster").path
        let tmux = try TmuxSession(command: TmuxSession.shellQuote(roster), environment: [
            "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state",
            "XDG_CONFIG_HOME": home + "/config", "LANG": "C.UTF-8",
        ])
        try await tmux.waitFor("1 / 20")
        try tmux.send("q")
        try await waitUntil("roster quits") { try tmux.paneIsDead() }

        func mode(_ path: String) -> String {
            var info = stat()
            return stat(path, &info) == 0 ? String(info.st_mode & 0o777, radix: 8) : "missing"
        }
        for folder in ["/data/roster", "/state/roster", "/config/roster"] {
            #expect(mode(home + folder) == "700", "\(folder)")
        }
        for file in ["/data/roster/roster.sqlite", "/state/roster/roster.log", "/config/roster/roster.json"] {
            #expect(mode(home + file) == "600", "\(file)")
        }
        for file in ["/data/roster/roster.sqlite-wal", "/data/roster/roster.sqlite-shm"] where mode(home + file) != "missing" {
            #expect(mode(home + file) == "600", "\(file)")
        }
        let log = try String(contentsOfFile: home + "/state/roster/roster.log", encoding: .utf8)
        #expect(log.contains("made \(home)/config/roster private: mode 755 → 700"), "\(log)")
        #expect(log.contains("made \(home)/config/roster/roster.json private: mode 644 → 600"))
    }
}
