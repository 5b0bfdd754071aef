import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// `roster` against OpenLDAP's slapd in tmux: open over StartTLS, search a Cyrillic name, mark
/// three people, suspend them, and find ppolicy's lock on each with ldapsearch. An extension of
/// the serialized end-to-end suite.
extension EndToEndTests {
    @Test func onSlapdMarkingThreeFoundPeopleAndSuspendingThemLocksThemInTheDirectory() async throws {
        let server = try SlapdServer()
        let folder = server.folder.appendingPathComponent("roster")
        let config = folder.appendingPathComponent("config/roster")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try #"{"caFile": "\#(server.caFile)"}"#.write(to: config.appendingPathComponent("roster.json"), atomically: true, encoding: .utf8)
        let roster = try BuiltProducts.url(of: "roster").path
        let tmux = try TmuxSession(command: [roster, "--server", server.url.absoluteString].map(TmuxSession.shellQuote).joined(separator: " "),
                                   environment: [
                                       "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                                       "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                                       "ROSTER_BIND_DN": SlapdServer.adminDN, "ROSTER_PASSWORD": SlapdServer.adminPassword,
                                       "LANG": "C.UTF-8",
                                   ])
        defer { tmux.kill() }
        try await tmux.waitFor("LDAP · ldap://127.0.0.1")
        try tmux.send("/")
        try tmux.type("Дмитрий")
        try tmux.send("Enter")
        try await tmux.waitFor("“Дмитрий”")
        let found = try await tmux.waitForScreen("the people found") { $0.contains("1 / 15") }
        #expect(!found.contains(SlapdServer.adminPassword))
        try tmux.send("Space", "Space", "Space")
        try await tmux.waitForScreen("three marks") { $0.contains("3 marked") }
        try tmux.send("S")
        try await tmux.waitFor("Suspend 3 users?")
        try tmux.send("y")
        try await tmux.waitForScreen("the run to end") { $0.contains("Suspended 3 users") }
        let locked = try server.ldapsearch(base: "ou=people,\(SlapdServer.base)", scope: "sub",
                                           filter: "(pwdAccountLockedTime=000001010000Z)", attributes: ["givenName"])
        #expect(locked["givenname"] == ["Дмитрий", "Дмитрий", "Дмитрий"])
    }
}

extension EndToEndTests {
    @Test func onSambaADMarkingThreeFoundPeopleAndSuspendingThemDisablesThem() async throws {
        let server = try SambaServer()
        let folder = server.folder.appendingPathComponent("roster")
        let config = folder.appendingPathComponent("config/roster")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try #"{"caFile": "\#(server.caFile)"}"#.write(to: config.appendingPathComponent("roster.json"), atomically: true, encoding: .utf8)
        let roster = try BuiltProducts.url(of: "roster").path
        let tmux = try TmuxSession(command: [roster, "--server", server.url.absoluteString, "--bind-dn", SambaServer.admin]
                                       .map(TmuxSession.shellQuote).joined(separator: " "),
                                   environment: [
                                       "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                                       "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                                       "ROSTER_PASSWORD": SambaServer.adminPassword, "LANG": "C.UTF-8",
                                   ])
        defer { tmux.kill() }
        try await tmux.waitFor("LDAP · ldap://")
        try tmux.send("/")
        try tmux.type("Νίκος")
        try tmux.send("Enter")
        try await tmux.waitForScreen("the people found") { $0.contains("“Νίκος”") && $0.contains("1 / 6") }
        try tmux.send("Space", "Space", "Space")
        try await tmux.waitForScreen("three marks") { $0.contains("3 marked") }
        try tmux.send("S")
        try await tmux.waitFor("Suspend 3 users?")
        try tmux.send("y")
        try await tmux.waitForScreen("the run to end") { $0.contains("Suspended 3 users") }
        let disabled = try server.ldapsearch(base: SambaServer.users, scope: "sub",
                                             filter: "(&(givenName=Νίκος)(userAccountControl:1.2.840.113556.1.4.803:=2))", attributes: ["givenName"])
        #expect(disabled["givenname"]?.count == 3)
    }
}
