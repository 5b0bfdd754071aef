import Foundation
import RosterCSV
import RosterJournal
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Title, department and employee number in an import: placed only where the directory's
/// traits name them (else ignored, with the reason), offered by `m`, counted as a change in the
/// preview, set alone on update, and undone.
@MainActor
@Suite("Import of profile attributes")
struct ImportAttributeTests {
    let folder: TemporaryFolder
    init() { folder = TemporaryFolder() }

    func plan(_ text: String, attributes: [UserAttribute]) throws -> ImportPlan {
        try ImportFileReader.plan(data: Data(text.utf8), path: "/tmp/users.csv", attributes: attributes)
    }

    static let entra = "Name [displayName] Required,User name [userPrincipalName] Required,Job title [jobTitle],Department [department]\r\n"
        + "Ana Silva,ana@example.com,Engineer,R&D\r\n"

    @Test func theTemplatesAttributeHeadersArePlacedOnlyWhereTheTraitsNameThem() throws {
        let scim = try plan(Self.entra, attributes: UserAttribute.allCases)
        #expect(scim.mapping.fields == [.name, .email, .attribute(.title), .attribute(.department)])
        #expect(scim.rows.first?.attributes == [.title: "Engineer", .department: "R&D"])
        #expect(scim.rows.first?.draft?.attributes == [.title: "Engineer", .department: "R&D"])

        let titleOnly = try plan(Self.entra, attributes: [.title])
        #expect(titleOnly.mapping.fields == [.name, .email, .attribute(.title), nil])
        #expect(titleOnly.mapping.ignoredNotes == ["Department [department] (no department here)"])

        let roster = try plan(Self.entra, attributes: [])
        #expect(roster.mapping.fields == [.name, .email, nil, nil])
        #expect(roster.rows.first?.attributes == [:])
        #expect(roster.mapping.ignoredNotes == ["Job title [jobTitle] (no title here)", "Department [department] (no department here)"])

        let google = try plan("First Name [Required],Last Name [Required],Email Address [Required],Employee ID,Employee Title,Department\n"
            + "Ana,Silva,ana@example.com,E-1,Engineer,R&D\n", attributes: UserAttribute.allCases)
        #expect(google.mapping.fields == [.firstName, .lastName, .email, .attribute(.employeeNumber), .attribute(.title), .attribute(.department)])
        let okta = try plan("login,email,title,department,employeeNumber\nana,ana@example.com,Engineer,R&D,42\n", attributes: UserAttribute.allCases)
        #expect(okta.rows.first?.attributes == [.title: "Engineer", .department: "R&D", .employeeNumber: "42"])
        let ldap = try plan("uid,mail,title,departmentNumber\nana,ana@example.com,Engineer,R&D\n", attributes: UserAttribute.allCases)
        #expect(ldap.mapping.fields == [.login, .email, .attribute(.title), .attribute(.department)])
    }

    @Test func aControlCharacterOrAnOverlongValueIsTheRowsProblem() throws {
        let text = "email,title\na@example.com,\"Eng\u{07}ineer\"\nb@example.com,\(String(repeating: "x", count: 300))\nc@example.com,\n"
        let plan = try plan(text, attributes: [.title])
        #expect(plan.rows.map(\.problem) == ["title has a control character", "title is longer than 256 characters", nil])
        #expect(plan.rows[2].attributes == [:], "an empty cell leaves the attribute as it is")
    }

    @Test func theManualMappingOffersTheAttributesTheDirectoryHasAndARememberedOneItLacksIsDropped() throws {
        var mapping = ImportMapping(headers: ["Mail", "Rolle im Team"], attributes: [.title])
        #expect(mapping.choices.compactMap(\.attribute) == [.title])
        mapping.assign(.attribute(.title), toColumn: 1)
        mapping.assign(.attribute(.department), toColumn: 0)
        #expect(mapping.fields == [.email, .attribute(.title)], "department is not offered here, so not placed")
        #expect(ImportMapping(headers: ["Mail", "Rolle im Team"], attributes: []).choices.allSatisfy { $0.attribute == nil })

        let store = ImportMappingStore(path: folder.path("state/import-mappings.json"))
        try store.remember(mapping)
        #expect(store.mapping(for: mapping.headers, attributes: [.title])?.fields == [.email, .attribute(.title)])
        #expect(store.mapping(for: mapping.headers, attributes: [])?.fields == [.email, nil], "kept for SCIM, ignored on the Roster API")
        #expect(ImportField(rawValue: ImportField.attribute(.employeeNumber).rawValue) == .attribute(.employeeNumber))
    }

    func preview(_ path: String, app: AppModel) async throws -> ImportModel {
        app.startImport()
        app.editLine(.deleteToStart)
        app.editLine(.insert(path))
        app.commitLine()
        guard case .importer(let model) = app.topScreen else { throw ImportModelTests.PreviewError(problem: app.line?.problem ?? "none") }
        await app.activity.waitForLoads()
        return model
    }

    @Test func aTitleChangeAloneIsAChangeThatSetsOnlyTheTitleAndUndoPutsItBack() async throws {
        var ana = User.fixture(id: "u1", name: "Ana Silva", email: "ana@example.com", role: .member, status: .active)
        ana.attributes = [.title: "Engineer", .department: "R&D"]
        var bo = User.fixture(id: "u2", name: "Bo Berg", email: "bo@example.com", role: .member, status: .active)
        bo.attributes = [.title: "Analyst"]
        let directory = InMemoryDirectory(users: [ana, bo])
        // The traits are asked by the comparison, after the file was read: the title is placed then.
        await directory.setTraits(DirectoryTraits(dialect: .scim, statuses: [.active, .suspended], attributes: [.title, .department]))
        let app = AppModel(directory: directory)
        let journal = try ChangeJournal(path: folder.path("journal.sqlite"))
        app.recorder = ChangeRecorder(journal: journal, connection: "test")
        let path = try folder.write("titles.csv", "email,Job Title,Employee ID\nana@example.com,Lead Engineer,7\nbo@example.com,Analyst,8\n")
        let model = try await preview(path, app: app)

        #expect(model.plan.mapping.fields == [.email, .attribute(.title), nil], "no employee number on this directory")
        #expect(model.comparison == .ready && model.changedCount == 1 && model.unchangedCount == 1 && model.newCount == 0)
        #expect(model.verdicts[2]?.changeText == "title: Engineer → Lead Engineer")
        app.confirm()
        await app.activity.waitForLoads()
        #expect(model.updatedCount == 1)
        let updated = try #require(await directory.storedUser(id: "u1"))
        #expect(updated.attributes == [.title: "Lead Engineer", .department: "R&D"], "the department, not in the file, stays")
        #expect(updated.name == "Ana Silva")
        try await journal.flush()
        #expect(try await journal.entries().first { $0.action == .updateUser }?.change == "title Engineer → Lead Engineer")
        app.close()

        app.openRecentChanges()
        await app.activity.waitForLoads()
        guard case .recentChanges(let changes) = app.topScreen else { Issue.record("no U screen"); return }
        changes.undoSelected()
        await app.activity.waitForLoads()
        app.confirm()
        await app.activity.waitForLoads()
        #expect(app.undoRun?.restored.count == 1)
        #expect(await directory.storedUser(id: "u1")?.attributes == [.title: "Engineer", .department: "R&D"])
    }
}
