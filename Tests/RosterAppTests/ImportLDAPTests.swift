import Foundation
import RosterJournal
import RosterKit
import RosterLDAP
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// An import of titles and departments through the app model against OpenLDAP's slapd: the
/// file's LDAP names (`uid`, `title`, `departmentNumber`) placed, only those attributes
/// modified (the password and cn survive, checked with ldapsearch), and undo puts them back.
@Suite("Import against slapd", .timeLimit(.minutes(2)))
@MainActor
struct ImportLDAPTests {
    @Test func titlesAndDepartmentsLandAndUndoRestoresThem() async throws {
        let server = try SlapdServer(people: 20)
        let folder = NSTemporaryDirectory() + "roster-import-ldap-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let id = "uid=user000007,ou=people,\(SlapdServer.base)"
        let before = try server.ldapsearch(base: id, attributes: ["title", "departmentNumber", "cn", "userPassword"])

        let app = AppModel(directory: LDAPDirectory(configuration: server.configuration()), perPage: 50)
        app.recorder = ChangeRecorder(journal: try ChangeJournal(path: folder + "/journal.sqlite"), connection: "slapd")
        let path = folder + "/titles.csv"
        try "uid;title;departmentNumber\r\nuser000007;Head of Titles;Platform\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        app.startImport()
        app.editLine(.deleteToStart)
        app.editLine(.insert(path))
        app.commitLine()
        guard case .importer(let model) = app.topScreen else { Issue.record("no preview: \(app.line?.problem ?? "")"); return }
        await app.activity.waitForLoads()
        #expect(model.plan.mapping.fields == [.login, .attribute(.title), .attribute(.department)])
        #expect(model.changedCount == 1, "\(model.comparison)")
        app.confirm()
        await app.activity.waitForLoads()
        #expect(model.updatedCount == 1 && model.failedCount == 0)
        let after = try server.ldapsearch(base: id, attributes: ["title", "departmentNumber", "cn", "userPassword"])
        #expect(after["title"] == ["Head of Titles"] && after["departmentnumber"] == ["Platform"])
        #expect(after["cn"] == before["cn"] && after["userpassword"] == before["userpassword"], "what Roster does not model survives")
        app.close()

        app.openRecentChanges()
        await app.activity.waitForLoads()
        guard case .recentChanges(let changes) = app.topScreen else { Issue.record("no U screen"); return }
        changes.undoSelected()
        await app.activity.waitForLoads()
        app.confirm()
        await app.activity.waitForLoads()
        #expect(app.undoRun?.restored.count == 1, "\(app.undoRun?.outcomes.map(\.line) ?? [])")
        let undone = try server.ldapsearch(base: id, attributes: ["title", "departmentNumber", "cn", "userPassword"])
        #expect(undone == before)
    }
}
