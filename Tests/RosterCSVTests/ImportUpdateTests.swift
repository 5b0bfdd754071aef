import Foundation
import RosterCSV
import RosterJournal
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The three-way preview, create only / update only / both, updates of only the mapped
/// fields (journalled with before and after), groups, and a mapping made by hand.
@MainActor
@Suite("Import updates and groups")
struct ImportUpdateTests {
    let folder: TemporaryFolder
    init() { folder = TemporaryFolder() }

    func preview(_ path: String, app: AppModel) async throws -> ImportModel {
        app.startImport()
        app.editLine(.deleteToStart)
        app.editLine(.insert(path))
        app.commitLine()
        guard case .importer(let model) = app.topScreen else { throw ImportModelTests.PreviewError(problem: app.line?.problem ?? "none") }
        await app.activity.waitForLoads()
        return model
    }

    static let entraHeader = "Name [displayName] Required,User name [userPrincipalName] Required,Initial password [passwordProfile] Required,"
        + "Block sign in (Yes/No) [accountEnabled] Required,First name [givenName],Last name [surname]"

    @Test func thePreviewSortsRowsIntoNewChangedAndUnchangedAndAnUpdateChangesOnlyMappedFields() async throws {
        let repository = InMemoryDirectory(users: [
            .fixture(id: "u1", name: "Ana Silva", email: "ana@example.com", role: .admin, status: .active),
            .fixture(id: "u2", name: "Bo Berg", email: "bo@example.com", role: .viewer, status: .active),
        ])
        let app = AppModel(directory: repository)
        let journal = try ChangeJournal(path: folder.path("journal.sqlite"))
        app.recorder = ChangeRecorder(journal: journal, connection: "test")
        let path = try folder.write("entra.csv", "version:v1.0\r\n" + Self.entraHeader + "\r\n"
            + "Ana Silva Costa,ANA@example.com,x,Yes,Ana,Silva Costa\r\n"
            + "Bo Berg,bo@example.com,x,No,Bo,Berg\r\n"
            + "Cy Cole,cy@example.com,x,No,Cy,Cole\r\n")
        let model = try await preview(path, app: app)

        #expect(model.comparison == .ready)
        #expect(model.newCount == 1 && model.changedCount == 1 && model.unchangedCount == 1)
        #expect(model.verdicts[3]?.changeText == "name: Ana Silva → Ana Silva Costa · status: active → suspended")
        model.nextListing()
        #expect(model.listing == .new && model.listedRows.map(\.email) == ["cy@example.com"])
        model.nextListing()
        #expect(model.listedRows.map(\.line) == [3])
        model.nextListing()
        #expect(model.listedRows.map(\.line) == [4])
        #expect(model.toSendCount == 2)
        model.nextMode()
        #expect(model.mode == .createOnly && model.toSendCount == 1)
        model.nextMode()
        #expect(model.mode == .updateOnly && model.toSendCount == 1)

        app.confirm() // Enter: update only
        await app.activity.waitForLoads()
        #expect(model.phase == .finished && model.updatedCount == 1 && model.createdCount == 0)
        let ana = try await repository.user(id: "u1")
        #expect(ana.name == "Ana Silva Costa" && ana.status == .suspended)
        #expect(ana.role == .admin, "role is not in the file: it stays")
        #expect(await repository.count == 2, "update only: Cy is not created")
        #expect(await repository.callCount(.update) == 1, "Bo, unchanged, is not sent")

        let entries = try await journal.entries(limit: 10)
        let update = try #require(entries.first { $0.action == .updateUser })
        #expect(update.before?.user?.name == "Ana Silva" && update.after?.user?.name == "Ana Silva Costa")
        #expect(update.runID != nil, "in the import's own run, for undo")

        let report = try #require(try folder.report(for: path))
        #expect(report.contains("3,ANA@example.com,updated,u1: name: Ana Silva → Ana Silva Costa"))
        #expect(report.contains("4,bo@example.com,unchanged,u2"))
        #expect(report.contains("5,cy@example.com,skipped,new user; update only"))
    }

    @Test func groupsInTheFileAreJoinedAndMissingOnesCreatedAfterTheQuestion() async throws {
        let repository = InMemoryDirectory(users: [.fixture(id: "u1", name: "Ana", email: "ana@example.com")])
        await repository.setTraits(DirectoryTraits(dialect: .roster, hasGroups: true))
        let sales = try #require(await repository.insertGroups(named: ["Sales"]).first)
        let app = AppModel(directory: repository)
        let path = try folder.write("groups.csv", "email,name,groups\nana@example.com,Ana,Sales; Ops\ndan@example.com,Dan,ops\n")
        let model = try await preview(path, app: app)
        #expect(model.missingGroups == ["Ops"])
        #expect(model.changedCount == 1 && model.newCount == 1)
        #expect(model.verdicts[2]?.changeText == "groups: + Sales, Ops")

        app.confirm()
        #expect(model.phase == .askingGroups)
        app.confirm() // y: create them
        await app.activity.waitForLoads()
        #expect(model.phase == .finished && model.failedCount == 0)
        let ops = try #require(try await repository.listGroups(GroupQuery(search: "Ops")).items.first)
        let dan = try #require(try await repository.listUsers(UserQuery(search: "dan@example.com")).items.first)
        #expect(Set(await repository.memberIDs(of: ops.id)) == ["u1", dan.id])
        #expect(await repository.memberIDs(of: sales.id) == ["u1"])
        #expect(model.outcomes[3]?.note == "added to Ops")

        // Again: nothing left to do.
        app.close()
        let again = try await preview(path, app: app)
        #expect(again.unchangedCount == 2 && again.toSendCount == 0 && again.missingGroups.isEmpty)
    }

    @Test func answeringNoImportsWithoutTheMissingGroupsAndSaysSo() async throws {
        let repository = InMemoryDirectory()
        await repository.setTraits(DirectoryTraits(dialect: .roster, hasGroups: true))
        let app = AppModel(directory: repository)
        let path = try folder.write("groups.csv", "email,name,groups\ndan@example.com,Dan,Nowhere\n")
        let model = try await preview(path, app: app)
        app.confirm()
        #expect(model.phase == .askingGroups)
        model.answerGroups(create: false)
        await app.activity.waitForLoads()
        #expect(model.createdCount == 1)
        #expect(try await repository.listGroups(GroupQuery()).items.isEmpty)
        #expect(model.outcomes[2]?.note == "not added to Nowhere (no such group)")
    }

    @Test func aColumnMappedByHandInThePreviewIsUsedAndRememberedForTheNextFile() async throws {
        let repository = InMemoryDirectory()
        let app = AppModel(directory: repository)
        app.importMappings = ImportMappingStore(path: folder.path("state/import-mappings.json"))
        let text = "Vorname,Nachname,Dienstadresse\nAna,Silva,ana@example.com\n"
        let path = try folder.write("hr.csv", text)
        let model = try await preview(path, app: app)
        #expect(model.plan.mapping.fields == [nil, nil, nil])
        #expect(model.comparison == .waitingForMapping)

        model.startMapping()
        #expect(model.phase == .mapping && model.mappingCursor == 0, "the cursor starts on the first column not placed")
        func choose(_ field: ImportField) {
            for _ in model.fieldChoices.indices where model.editedMapping?.fields[model.mappingCursor] != field { model.cycleField(by: 1) }
        }
        choose(.firstName)
        model.scroll(by: 1)
        choose(.lastName)
        model.scroll(by: 1)
        model.cycleField(by: -1) // h from "ignored" goes round to the last field
        #expect(model.editedMapping?.fields[2] == model.fieldChoices.last!)
        model.cycleField(by: 1)
        model.cycleField(by: 1)
        #expect(model.editedMapping?.fields[2] == .name)
        model.cycleField(by: 1)
        #expect(model.editedMapping?.fields[2] == .email, "the first and last name are taken by the other columns: skipped")
        #expect(model.editedMapping?.fields == [.firstName, .lastName, .email])
        app.confirm() // Enter: use it
        await app.activity.waitForLoads()
        #expect(model.phase == .preview && model.comparison == .ready && model.newCount == 1)
        #expect(model.plan.rows.first?.draft == UserDraft(name: "Ana Silva", email: "ana@example.com"))

        app.close()
        let next = try await preview(try folder.write("hr2.csv", text + "Bo,Berg,bo@example.com\n"), app: app)
        #expect(next.plan.mapping.fields == [.firstName, .lastName, .email], "remembered for this header set")
        #expect(next.newCount == 2)
    }
}
