import Foundation
import Logging
import RosterJournal
import RosterKit
import RosterKitTestSupport
import RosterServer
import Testing
@testable import RosterApp

/// An Entra ID bulk-create file of 50 rows against real servers (roster-server's API, and
/// PyPI's scim2-server, a SCIM service nobody on this project wrote): 30 new, 15 changed, 5
/// unchanged in the preview and on the server; the same file again changes nothing; undo
/// of the import puts the 15 back (and removes the 30).
@MainActor
@Suite("Import against real servers", .serialized, .timeLimit(.minutes(5)))
struct ImportAgainstServersTests {
    static let token = "import-test-\(UUID().uuidString)"
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static var quiet: Logger { Logger(label: "import") { _ in SwiftLogNoOpLogHandler() } }

    static func client(_ url: URL, token: String) -> APIClient {
        APIClient(baseURL: url, token: token, transport: TestTransport.shared, logger: quiet)
    }

    static func email(_ number: Int) -> String { "person-\(String(format: "%02d", number))@example.com" }

    /// Rows 1–20 name the users already there: 1–10 renamed, 11–15 blocked (suspended),
    /// 16–20 as they are; rows 21–50 are new.
    static func entraFile() -> String {
        var lines = ["version:v1.0",
                     "Name [displayName] Required,User name [userPrincipalName] Required,Initial password [passwordProfile] Required,"
                        + "Block sign in (Yes/No) [accountEnabled] Required,First name [givenName],Last name [surname],Job title [jobTitle]"]
        for number in 1...50 {
            let name = number <= 10 ? "Person \(number) Renamed" : number <= 20 ? "Person \(number)" : "New Hire \(number)"
            let block = (11...15).contains(number) ? "Yes" : "No"
            lines.append("\(name),\(email(number)),Secret-\(number)!,\(block),,,Engineer")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func preview(_ path: String, app: AppModel) async throws -> ImportModel {
        app.startImport()
        app.editLine(.deleteToStart)
        app.editLine(.insert(path))
        app.commitLine()
        guard case .importer(let model) = app.topScreen else { throw PeerError(app.line?.problem ?? "no preview") }
        await app.activity.waitForLoads()
        return model
    }

    struct PeerError: Error { var text: String; init(_ text: String) { self.text = text } }

    /// The whole story on one directory; `reader` checks the server apart from the app.
    /// The 20 users the file's first rows name.
    func seed(_ directory: any Directory) async throws -> [User] {
        var before: [User] = []
        for number in 1...20 {
            before.append(try await directory.createUser(UserDraft(name: "Person \(number)", email: Self.email(number), status: .active)))
        }
        return before
    }

    /// The file imported: the preview's counts and the server's users.
    func importFile(on directory: any Directory, reader: any Directory) async throws -> (app: AppModel, path: String) {
        let app = AppModel(directory: directory, perPage: 50)
        app.recorder = ChangeRecorder(journal: try ChangeJournal(path: folder.path("journal.sqlite")), connection: "test")
        let path = try folder.write("entra.csv", Self.entraFile())

        let model = try await preview(path, app: app)
        #expect(model.comparison == .ready, "\(model.comparison)")
        #expect(model.newCount == 30 && model.changedCount == 15 && model.unchangedCount == 5)
        app.confirm()
        await app.activity.waitForLoads()
        #expect(model.createdCount == 30 && model.updatedCount == 15 && model.failedCount == 0,
                "\(model.report.filter { if case .failed = $0.kind { true } else { false } }.map(\.detail))")
        let everyone = try await EveryUser.everyone(reader)
        #expect(everyone.count == 50)
        for number in 1...50 {
            let user = try #require(everyone.first { $0.email == Self.email(number) })
            let name = number <= 10 ? "Person \(number) Renamed" : number <= 20 ? "Person \(number)" : "New Hire \(number)"
            #expect(user.name == name && user.status == ((11...15).contains(number) ? .suspended : .active), "\(user)")
        }
        app.close()
        return (app, path)
    }

    /// The same file again changes nothing; undo of the import puts `before` back.
    func againAndUndo(_ app: AppModel, path: String, before: [User], reader: any Directory) async throws {

        // Again: everything is as the file says; nothing is sent.
        let again = try await preview(path, app: app)
        #expect(again.newCount == 0 && again.changedCount == 0 && again.unchangedCount == 50 && again.toSendCount == 0)
        app.close()

        // Undo the import from U: the 15 as they were, the 30 gone.
        app.openRecentChanges()
        await app.activity.waitForLoads()
        guard case .recentChanges(let changes) = app.topScreen else { Issue.record("no U screen"); return }
        changes.undoSelected()
        await app.activity.waitForLoads()
        guard case .confirm = app.topScreen else { Issue.record("no question"); return }
        app.confirm()
        await app.activity.waitForLoads()
        let undo = try #require(app.undoRun)
        #expect(undo.conflicts.isEmpty && undo.failures.isEmpty, "\(undo.outcomes.map(\.line))")
        let after = try await EveryUser.everyone(reader)
        #expect(after.count == 20)
        for user in before {
            let now = try #require(after.first { $0.id == user.id })
            #expect(UserFields.same(now, user), "\(user.email): \(UserFields.differences(from: user, to: now))")
        }
    }

    @Test func rosterServerAPI() async throws {
        defer { folder.remove() }
        let server = try await UserAPIServer.start(
            ServerConfiguration(databasePath: folder.path("users.sqlite"), token: Self.token, seedCount: 0), logger: Self.quiet)
        do {
            let directory = RosterAPIDirectory(client: Self.client(server.url, token: Self.token))
            let reader = RosterAPIDirectory(client: Self.client(server.url, token: Self.token))
            let before = try await seed(directory)
            let (app, path) = try await importFile(on: directory, reader: reader)
            try await againAndUndo(app, path: path, before: before, reader: reader)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test func scim2Server() async throws {
        defer { folder.remove() }
        let peer = try SCIMPeer()
        defer { peer.stop() }
        let directory = SCIMDirectory(client: peer.client()), reader = SCIMDirectory(client: peer.client())
        let before = try await seed(directory)
        // A title set by another tool on a user the file renames: Roster maps no title, so it stays.
        try await peer.patchTitle(id: before[0].id, "Keeper of Titles")
        let (app, path) = try await importFile(on: directory, reader: reader)
        let raw = try await peer.raw(id: before[0].id)
        #expect(raw[attribute: "title"] == .string("Keeper of Titles"))
        #expect(raw[attribute: "displayName"] == .string("Person 1 Renamed"))
        try await againAndUndo(app, path: path, before: before, reader: reader)
    }
}

/// Every user the directory has, page by page (not through the app).
enum EveryUser {
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
}
