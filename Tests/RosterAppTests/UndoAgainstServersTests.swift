import Foundation
import Logging
import RosterJournal
import RosterKit
import RosterKitTestSupport
import RosterServer
import Testing
@testable import RosterApp

/// Undo against real servers: the real roster-server (Roster API, and its SCIM endpoint with
/// ETags) and PyPI's scim2-server, a SCIM service nobody on this project wrote. A bulk suspend
/// of 200 users is undone and every user is checked on the server; an edit changed again with
/// curl is a conflict, and the curl change is kept.
@MainActor
@Suite("Undo against real servers", .serialized, .timeLimit(.minutes(5)))
struct UndoAgainstServersTests {
    static let token = "undo-test-\(UUID().uuidString)"
    let scratch = TemporaryFolder("undo-servers")
    var folder: String { scratch.path }

    static var quiet: Logger { Logger(label: "undo") { _ in SwiftLogNoOpLogHandler() } }

    func withRosterServer(seed: Int, _ body: (RunningServer) async throws -> Void) async throws {
        let server = try await UserAPIServer.start(
            ServerConfiguration(databasePath: folder + "/users.sqlite", token: Self.token, seedCount: seed), logger: Self.quiet)
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    static func client(_ url: URL, token: String) -> APIClient {
        APIClient(baseURL: url, token: token, transport: TestTransport.shared, logger: quiet)
    }

    func app(_ directory: any Directory) async throws -> AppModel {
        let app = AppModel(directory: directory, perPage: 50)
        app.recorder = ChangeRecorder(journal: try ChangeJournal(path: folder + "/journal.sqlite"), connection: "test")
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        return app
    }

    /// Every user the directory has, read page by page (not through the app).
    static func everyone(_ directory: any Directory) async throws -> [User] {
        var users: [User] = []
        var page = 1
        while true {
            let answer = try await directory.listUsers(UserQuery(page: page, perPage: 100, sort: .email))
            users += answer.items
            if answer.items.count < 100 { return users }
            page += 1
        }
    }

    /// Suspends `targets` as a bulk run, checks the server, undoes the run from `U`, and checks
    /// that every user is back as it was, on the server.
    func suspendAndUndo(_ count: Int, on directory: any Directory, checkedWith reader: any Directory) async throws {
        let app = try await app(directory)
        let before = Array(try await Self.everyone(reader).prefix(count))
        #expect(before.count == count)
        app.start(BulkRun(action: .suspend, scope: .users(before.map { BulkTarget(user: $0, isFresh: false) }), total: count,
                          directory: directory, activity: app.activity, recorder: app.recorder))
        await app.activity.waitForLoads()
        let run = try #require(app.bulkRun)
        #expect(run.progress.failed == 0, "\(run.failures.map(\.reason))")
        let wasActive = before.filter { $0.status != .suspended }
        #expect(run.progress.succeeded == wasActive.count)
        for user in before { #expect(try await reader.user(id: user.id).status == .suspended) }

        app.openRecentChanges()
        await app.activity.waitForLoads()
        guard case .recentChanges(let changes) = app.topScreen else { Issue.record("no U screen"); return }
        changes.undoSelected()
        await app.activity.waitForLoads()
        guard case .confirm = app.topScreen else { Issue.record("no question"); return }
        app.confirm()
        await app.activity.waitForLoads()
        let undo = try #require(app.undoRun)
        #expect(undo.restored.count == wasActive.count)
        #expect(undo.conflicts.isEmpty && undo.failures.isEmpty, "\(undo.outcomes.map(\.line))")
        for user in before {
            let now = try await reader.user(id: user.id)
            #expect(UserFields.same(now, user), "\(user.id): \(UserFields.differences(from: user, to: now))")
        }
    }

    /// Edits a user's name in the form, changes it again with curl, and undoes in Roster: a
    /// conflict with the three names, and the curl name kept.
    func conflictWithCurl(on directory: any Directory, reader: any Directory, curl: (User) throws -> Void) async throws {
        let app = try await app(directory)
        let user = try #require(try await Self.everyone(reader).first)
        let form = UserFormModel(mode: .edit(try await directory.user(id: user.id)), directory: directory, activity: app.activity,
                                 traits: await directory.traits(), recorder: app.recorder)
        form.setText("Roster Edit", for: .name)
        form.submit()
        await app.activity.waitForLoads()
        #expect(try await reader.user(id: user.id).name == "Roster Edit")
        try curl(user)
        #expect(try await reader.user(id: user.id).name == "Curl Edit")

        app.openRecentChanges()
        await app.activity.waitForLoads()
        guard case .recentChanges(let changes) = app.topScreen else { Issue.record("no U screen"); return }
        changes.undoSelected()
        guard case .confirm = app.topScreen else { Issue.record("no question"); return }
        app.confirm()
        await app.activity.waitForLoads()
        let undo = try #require(app.undoRun)
        #expect(undo.conflicts.first?.kind == .conflict([UndoConflict(field: "name", before: user.name, roster: "Roster Edit", now: "Curl Edit")]))
        #expect(undo.restored.isEmpty)
        #expect(try await reader.user(id: user.id).name == "Curl Edit", "the curl change is kept")
    }

    struct CurlFailed: Error { var status: Int32 }

    static func curl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sS", "-f", "-o", "/dev/null"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CurlFailed(status: process.terminationStatus) }
    }

    // MARK: roster-server

    @Test func rosterServerAPIUndoOfASuspendOf200() async throws {
        try await withRosterServer(seed: 260) { server in
            let directory = RosterAPIDirectory(client: Self.client(server.url, token: Self.token))
            try await suspendAndUndo(200, on: directory, checkedWith: RosterAPIDirectory(client: Self.client(server.url, token: Self.token)))
        }
    }

    @Test func rosterServerSCIMUndoOfASuspendOf200WithETags() async throws {
        try await withRosterServer(seed: 260) { server in
            let scim = server.url.appendingPathComponent("scim/v2")
            let directory = SCIMDirectory(client: Self.client(scim, token: Self.token))
            try await suspendAndUndo(200, on: directory, checkedWith: SCIMDirectory(client: Self.client(scim, token: Self.token)))
        }
    }

    @Test func rosterServerConflictWithCurlIsShownAndTheCurlChangeKept() async throws {
        try await withRosterServer(seed: 20) { server in
            let directory = RosterAPIDirectory(client: Self.client(server.url, token: Self.token))
            try await conflictWithCurl(on: directory, reader: RosterAPIDirectory(client: Self.client(server.url, token: Self.token))) { user in
                try Self.curl(["-X", "PUT", "-H", "Authorization: Bearer \(Self.token)", "-H", "Content-Type: application/json",
                               "--data", #"{"name":"Curl Edit","email":"\#(user.email)"}"#,
                               server.url.appendingPathComponent("api/v1/users/\(user.id)").absoluteString])
            }
        }
    }

    // MARK: scim2-server (PyPI)

    @Test func scim2ServerUndoOfASuspendOf200() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        try await peer.seed(210, bulk: true)
        try await suspendAndUndo(200, on: SCIMDirectory(client: peer.client()), checkedWith: SCIMDirectory(client: peer.client()))
    }

    @Test func scim2ServerConflictWithCurlIsShownAndTheCurlChangeKept() async throws {
        let peer = try SCIMPeer()
        defer { peer.stop() }
        try await peer.seed(5, bulk: true)
        try await conflictWithCurl(on: SCIMDirectory(client: peer.client()), reader: SCIMDirectory(client: peer.client())) { user in
            let body = #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"displayName","value":"Curl Edit"}]}"#
            try Self.curl(["-X", "PATCH", "-H", "Authorization: Bearer \(SCIMPeer.token)", "-H", "Content-Type: application/scim+json",
                           "--data", body, peer.url.appendingPathComponent("Users/\(user.id)").absoluteString])
        }
    }
}
