import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

/// An access review in the real `roster` in tmux: two roster-servers as the profiles hr (the
/// source) and saas (the target, opened at start); `C`, hr highlighted, Ctrl-R; the leavers
/// list comes first with its count in the header; `*` marks them all, `S` and `y` suspend
/// them; on the target they are suspended and nobody else is touched. An extension of the
/// serialized end-to-end suite.
extension EndToEndTests {
    /// hr and saas, seeded: Bruno and Dmitri left hr and are active in saas; Ana stays; Eva
    /// is only in hr; Olga only in saas (suspended there). The profiles file is in `home`.
    static func reviewPair(home: URL) async throws -> (hr: ServerProcess, saas: ServerProcess) {
        let hr = try await ServerProcess()
        let saas = try await ServerProcess()
        let source = hr.repository
        let target = saas.repository
        for (name, email, left) in [("Ana Silva", "ana@example.com", false), ("Bruno Costa", "bruno@example.com", true),
                                    ("Дмитрий Орлов", "dmitri@example.com", true), ("Eva Novak", "eva@example.com", false)] {
            let user = try await source.createUser(UserDraft(name: name, email: email))
            if left { _ = try await source.updateUser(id: user.id, with: UserDraft(name: name, email: email, status: .suspended)) }
            if email != "eva@example.com" { _ = try await target.createUser(UserDraft(name: name, email: email.uppercased())) }
        }
        _ = try await target.createUser(UserDraft(name: "Olga Orphan", email: "olga@example.com", status: .suspended))
        let config = home.appendingPathComponent("config/roster")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
            {
              default: "saas",
              connections: {
                hr: { server: "\(hr.url.absoluteString)", api: "roster", token: "\(hr.token)" },
                saas: { server: "\(saas.url.absoluteString)", api: "roster", token: "\(saas.token)" },
              },
            }
            """.write(to: config.appendingPathComponent("roster.json"), atomically: true, encoding: .utf8)
        return (hr, saas)
    }

    static func environment(_ home: URL) -> [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state",
         "XDG_CONFIG_HOME": home.path + "/config", "LANG": "C.UTF-8"]
    }

    @Test func aReviewSuspendsTheLeaversOnTheTarget() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("roster-review-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let (hr, saas) = try await Self.reviewPair(home: home)
        defer { hr.stop(); saas.stop() }
        let target = saas.repository
        let roster = try BuiltProducts.url(of: "roster").path
        let tmux = try TmuxSession(command: TmuxSession.shellQuote(roster), environment: Self.environment(home))
        defer { tmux.kill() }
        try await tmux.waitFor("1 / 4")

        try tmux.send("C")
        try await tmux.waitFor("Connections")
        try tmux.type("hr")
        try tmux.send("C-r")
        let leavers = try await tmux.waitForScreen("the leavers list") { $0.contains("Leavers (1/4") && $0.contains("1 / 2") }
        #expect(leavers.split(separator: "\n").first?.contains("2 leavers") == true, "\(leavers)")
        #expect(leavers.contains("Дмитрий Орлов") && leavers.contains("Bruno Costa") && !leavers.contains("Ana Silva"), "\(leavers)")

        try tmux.send("*")
        try await tmux.waitFor("2 marked")
        try tmux.send("S")
        try await tmux.waitFor("Suspend 2 users?")
        try tmux.send("y")
        try await tmux.waitForScreen("the run to end") { $0.contains("Suspended ") && !$0.contains("marked") }

        var statuses: [String: Status] = [:]
        for user in try await target.listUsers(UserQuery(perPage: 50)).items { statuses[user.email.lowercased()] = user.status }
        #expect(statuses == ["ana@example.com": .active, "bruno@example.com": .suspended, "dmitri@example.com": .suspended,
                             "olga@example.com": .suspended])

        // The other lists are a key away.
        try tmux.send("]")
        try await tmux.waitForScreen("only in target") { $0.contains("Only in target (2/4") && $0.contains("Olga Orphan") }
        try tmux.send("]")
        try await tmux.waitForScreen("only in source") { $0.contains("Only in source (3/4") && $0.contains("Eva Novak") }
        try tmux.send("q")
        try await waitUntil("roster quits") { try tmux.paneIsDead() }
    }

    /// `roster compare hr saas` in a terminal opens the same review at once.
    @Test func compareInATerminalOpensTheReview() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("roster-review-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let (hr, saas) = try await Self.reviewPair(home: home)
        defer { hr.stop(); saas.stop() }
        let roster = try BuiltProducts.url(of: "roster").path
        let tmux = try TmuxSession(command: [roster, "compare", "hr", "saas"].map(TmuxSession.shellQuote).joined(separator: " "),
                                   environment: Self.environment(home))
        defer { tmux.kill() }
        let leavers = try await tmux.waitForScreen("the leavers list") { $0.contains("Leavers (1/4") && $0.contains("1 / 2") }
        #expect(leavers.split(separator: "\n").first?.contains("2 leavers") == true, "\(leavers)")
        try tmux.send("q")
        try await waitUntil("roster quits") { try tmux.paneIsDead() }
    }
}
