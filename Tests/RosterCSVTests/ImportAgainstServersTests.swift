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
/// of the import puts the 15 back (and removes the 30). Its Job title and Department columns
/// land on scim2-server (core `title`, the enterprise extension's `department`) and are
/// ignored, with the reason, by the Roster API, whose wire format has neither.
@MainActor
@Suite("Import against real servers", .serialized, .timeLimit(.minutes(5)))
struct ImportAgainstServersTests {
    static let token = "import-test-\(UUID().uuidString)"
    let folder: TemporaryFolder
    init() { folder = TemporaryFolder() }

    static var quiet: Logger { Logger(label: "import") { _ in SwiftLogNoOpLogHandler() } }

    static func client(_ url: URL, token: String) -> APIClient {
        APIClient(baseURL: url, token: token, transport: TestTransport.shared, logger: quiet)
    }

    static func email(_ number: Int) -> String { "person-\(String(format: "%02d", number))@example.com" }

    /// Rows 1–20 name the users already there: 1–10 renamed (1–5 also promoted to another
    /// title and department), 11–15 blocked (suspended), 16–20 as they are; rows 21–50 are new.
    static func entraFile() -> String {
        var lines = ["version:v1.0",
                     "Name [displayName] Required,User name [userPrincipalName] Required,Initial password [passwordProfile] Required,"
                        + "Block sign in (Yes/No) [accountEnabled] Required,First name [givenName],Last name [surname],Job title [jobTitle],"
                        + "Department [department]"]
        for number in 1...50 {
            let name = number <= 10 ? "Person \(number) Renamed" : number <= 20 ? "Person \(number)" : "New Hire \(number)"
            let block = (11...15).contains(number) ? "Yes" : "No"
            let profile = expectedAttributes(number)
            lines.append("\(name),\(email(number)),Secret-\(number)!,\(block),,,\(profile[.title]!),\(profile[.department]!)")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// What the seed gives everyone, and the file rows 1–5 another.
    static let seededAttributes: [UserAttribute: String] = [.title: "Engineer", .department: "Engineering"]

    static func expectedAttributes(_ number: Int) -> [UserAttribute: String] {
        number <= 5 ? [.title: "Senior Engineer", .department: "Platform"] : seededAttributes
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
            // The attributes land where the directory has them; the Roster API has none and drops them.
            before.append(try await directory.createUser(UserDraft(name: "Person \(number)", email: Self.email(number), status: .active,
                                                                   attributes: Self.seededAttributes)))
        }
        return before
    }

    /// The file imported: the preview's counts and the server's users.
    func importFile(on directory: any Directory, reader: any Directory) async throws -> (app: AppModel, path: String) {
        let app = AppModel(directory: directory, perPage: 50)
        app.recorder = ChangeRecorder(journal: try ChangeJournal(path: folder.path("journal.sqlite")), connection: "test")
        let path = try folder.write("entra.csv", Self.entraFile())

        let model = try await preview(path, app: app)
        let attributes = await directory.traits().attributes
        #expect(model.comparison == .ready, "\(model.comparison)")
        #expect(model.newCount == 30 && model.changedCount == 15 && model.unchangedCount == 5)
        if attributes.isEmpty {
            #expect(model.plan.mapping.ignoredNotes.contains("Job title [jobTitle] (no title here)"), "\(model.plan.mapping.ignoredNotes)")
        } else {
            #expect(model.verdicts[3]?.changeText
                == "name: Person 1 → Person 1 Renamed · title: Engineer → Senior Engineer · department: Engineering → Platform")
        }
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
            #expect(user.attributes == (attributes.isEmpty ? [:] : Self.expectedAttributes(number)), "\(user.email): \(user.attributes)")
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
        let peer = try SCIMPeer()
        defer { peer.stop() }
        let directory = SCIMDirectory(client: peer.client()), reader = SCIMDirectory(client: peer.client())
        let before = try await seed(directory)
        // An attribute set by another tool on a user the file changes: Roster maps no nickName, so it stays.
        try await peer.patch(id: before[0].id, path: "nickName", "Keeper")
        let (app, path) = try await importFile(on: directory, reader: reader)
        let raw = try await peer.raw(id: before[0].id)
        #expect(raw[attribute: "nickName"] == .string("Keeper"))
        #expect(raw[attribute: "displayName"] == .string("Person 1 Renamed"))
        #expect(raw[attribute: "title"] == .string("Senior Engineer"))
        #expect(raw[attribute: SCIMSchemas.enterpriseUser]?[attribute: "department"] == .string("Platform"))
        let hire = try #require(try await EveryUser.everyone(reader).first { $0.email == Self.email(50) })
        #expect(try await peer.raw(id: hire.id)[attribute: "title"] == .string("Engineer"), "a new user is created with the title")
        try await againAndUndo(app, path: path, before: before, reader: reader)
        // Undo set the old title and department back (againAndUndo compared every field).
        let undone = try await peer.raw(id: before[0].id)
        #expect(undone[attribute: "title"] == .string("Engineer"))
        #expect(undone[attribute: SCIMSchemas.enterpriseUser]?[attribute: "department"] == .string("Engineering"))
        #expect(undone[attribute: "nickName"] == .string("Keeper"))
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
