import Foundation
import Logging
import RosterCSV
import RosterKit
import RosterKitTestSupport
import RosterServer
import Testing
@testable import RosterApp

/// Export and import against the real roster-server: what the file says is what the API says.
@MainActor
@Suite("CSV against the server", .serialized)
struct AgainstServerTests {
    static let token = "csv-test-\(UUID().uuidString)"

    func withServer(seed: Int, _ body: (RosterAPIDirectory, TemporaryFolder) async throws -> Void) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let server = try await UserAPIServer.start(
            ServerConfiguration(databasePath: folder.path("users.sqlite"), token: Self.token, seedCount: seed),
            logger: Logger(label: "csv.server") { _ in SwiftLogNoOpLogHandler() })
        let repository = RosterAPIDirectory(client: APIClient(
            baseURL: server.url, token: Self.token, transport: TestTransport.shared,
            logger: Logger(label: "csv.client") { _ in SwiftLogNoOpLogHandler() }))
        do {
            try await body(repository, folder)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test func theExportOfAFilteredSortedViewIsWhatTheAPIListsInEveryColumn() async throws {
        try await withServer(seed: 450) { repository, folder in
            let app = AppModel(directory: repository)
            app.exportPageSize = 50
            app.exportColumns = CSVColumn.allCases
            app.list.setSort(.emailDescending)
            app.list.setFilter(ListFilter(status: .active))
            await app.activity.waitForLoads()

            app.startExport()
            app.editLine(.deleteToStart)
            app.editLine(.insert(folder.path("active.csv")))
            app.commitLine()
            await app.activity.waitForLoads()
            guard case .export(let export) = app.topScreen else { Issue.record("no export screen"); return }
            #expect(export.phase == .finished)

            // Every active user, in the server's order, page by page.
            var expected: [User] = []
            var page = 1
            while true {
                let answer = try await repository.listUsers(UserQuery(page: page, perPage: 200, sort: .emailDescending, status: .active))
                expected += answer.items
                if expected.count >= answer.total || answer.items.isEmpty { break }
                page += 1
            }
            #expect(expected.count > 50, "more than one page of the export's")
            let encoder = UserCSVEncoder(columns: CSVColumn.allCases)
            let file = try folder.read("active.csv")
            #expect(file == encoder.header + encoder.records(for: expected))
            #expect(export.progress.done == expected.count)

            // The file reads back: the emails, in order.
            let plan = try ImportFileReader.read(path: folder.path("active.csv"))
            #expect(plan.rows.map(\.email) == expected.map(\.email))
        }
    }

    @Test func importingAFileTwiceCreatesEachUserOnce() async throws {
        try await withServer(seed: 0) { repository, folder in
            let app = AppModel(directory: repository)
            let path = try folder.write("hires.csv", hiresCSV(count: 30, badLines: [5: "Nope,nope,,", 7: "Twin,hire001@example.com,,"]))
            @MainActor func run() async throws -> ImportModel {
                app.startImport()
                app.editLine(.deleteToStart)
                app.editLine(.insert(path))
                app.commitLine()
                guard case .importer(let model) = app.topScreen else { throw EndError() }
                await app.activity.waitForLoads() // the comparison
                app.confirm()
                await app.activity.waitForLoads()
                app.close()
                return model
            }
            let first = try await run()
            #expect(first.createdCount == 28 && first.failedCount == 0 && first.plan.badCount == 2)
            #expect(try await repository.listUsers(UserQuery()).total == 28)
            let made = try await repository.listUsers(UserQuery(perPage: 200, search: "hire003@example.com")).items
            #expect(made.map(\.name) == ["Hire 3"] && made.first?.status == .invited)

            let second = try await run()
            #expect(second.createdCount == 0 && second.unchangedCount == 28 && second.toSendCount == 0)
            #expect(try await repository.listUsers(UserQuery()).total == 28, "nobody twice")
            let reports = folder.names.filter { $0.contains("import-report") }
            #expect(!reports.isEmpty)
        }
    }

    @Test func aCreateWhoseAnswerWasLostIsReplayedByItsKeyNotMadeAgain() async throws {
        try await withServer(seed: 0) { repository, folder in
            let path = try folder.write("one.csv", hiresCSV(count: 1))
            let plan = try ImportFileReader.read(path: path)
            let row = try #require(plan.validRows.first)
            // The first run's create landed, but its answer never came back.
            let landed = try await repository.createUser(try #require(row.draft), idempotencyKey: plan.idempotencyKey(for: row))
            // Sent again with the row's key (what the retry does): the same user, not a 409 or a second one.
            let again = try await repository.createUser(try #require(row.draft), idempotencyKey: plan.idempotencyKey(for: row))
            #expect(again.id == landed.id)
            #expect(try await repository.listUsers(UserQuery()).total == 1)
        }
    }

    struct EndError: Error {}
}
