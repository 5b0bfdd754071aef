import Foundation
import RosterCSV
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Export: the list as the person sees it, streamed page by page to a file.
@MainActor
@Suite("Export model")
struct ExportModelTests {
    let folder: TemporaryFolder
    init() { folder = TemporaryFolder() }

    func directory(_ count: Int) -> InMemoryDirectory {
        InMemoryDirectory(users: (1...count).map { User.fixture(number: $0) })
    }

    @Test func writesEveryMatchingUserInTheQuerysOrderPageByPage() async throws {
        let repository = directory(95)
        let activity = Activity()
        let query = UserQuery(search: "user000000", sort: .emailDescending, status: .suspended)
        let export = ExportModel(query: query, columns: [.id, .email, .status], destination: folder.path("out.csv"),
                                 directory: repository, activity: activity, pageSize: 2)
        export.start()
        await activity.waitForLoads()

        #expect(export.phase == .finished)
        let calls = await repository.listCalls()
        var all = query
        all.perPage = 200
        let expected = try await repository.listUsers(all).items
        #expect(expected.count == 3, "user0000002, 05 and 08 are suspended")
        #expect(try folder.read("out.csv") == "id,email,status\r\n" + expected.map { "\($0.id),\($0.email),suspended\r\n" }.joined())
        #expect(calls.map(\.page) == [1, 2], "two pages of two")
        #expect(calls.allSatisfy { $0.perPage == 2 && $0.search == "user000000" && $0.sort == .emailDescending && $0.status == .suspended })
        #expect(export.progress.done == 3 && export.progress.total == 3)
    }

    @Test func eachPageIsOnDiskBeforeTheNextArrivesAndEscRemovesWhatWasWritten() async throws {
        let repository = directory(10)
        let activity = Activity()
        let export = ExportModel(query: UserQuery(), columns: [.email], destination: folder.path("out.csv"),
                                 directory: repository, activity: activity, pageSize: 4)
        let first = await repository.holdNext(.list)
        let second = await repository.holdNext(.list)
        first.open()
        export.start()
        await second.waitForArrivals()
        // Page 1 is written; page 2 is on its way.
        let partial = try folder.read("out.csv.part")
        #expect(partial == "email\r\n" + (1...4).map { User.fixture(number: $0).email + "\r\n" }.joined())
        #expect(!folder.names.contains("out.csv"), "no file under the name until it is complete")
        #expect(export.progress.done == 4 && export.progress.total == 10)

        export.cancel()
        second.open()
        await activity.waitForLoads()
        #expect(export.phase == .cancelled)
        #expect(folder.names.isEmpty, "Esc leaves nothing behind: \(folder.names)")
    }

    @Test func rOnAFailedExportRunsTheSameQueryAgainFromTheStart() async throws {
        let repository = directory(5)
        let app = AppModel(directory: repository)
        app.start()
        await app.activity.waitForLoads()
        await repository.failNext(.list, with: .serverError(status: 503, ErrorBody(code: "unavailable", message: "Try later.")))
        app.startExport()
        app.editLine(.deleteToStart)
        app.editLine(.insert(folder.path("out.csv")))
        app.commitLine()
        await app.activity.waitForLoads()
        guard case .export(let failed) = app.topScreen else { Issue.record("no export: \(app.topScreen)"); return }
        #expect(failed.canRetry && app.canRetry)
        #expect(folder.names.isEmpty, "nothing was written")

        app.retry() // r
        await app.activity.waitForLoads()
        guard case .export(let again) = app.topScreen else { Issue.record("no export: \(app.topScreen)"); return }
        #expect(again !== failed)
        #expect(again.phase == .finished)
        #expect(try folder.read("out.csv").components(separatedBy: "\r\n").count - 2 == 5, "a header and five users")
    }
}
