import Foundation
import RosterJournal
import RosterKit
import RosterKitTestSupport
import Testing
@testable import roster

/// `roster journal --since`: the ages it reads, and the text it prints for a run and its writes.
@Suite("roster journal")
struct JournalCommandTests {
    @Test func agesAreANumberAndAUnit() {
        #expect(JournalCommand.seconds("30m") == 1800)
        #expect(JournalCommand.seconds("12h") == 43_200)
        #expect(JournalCommand.seconds("1d") == 86_400)
        #expect(JournalCommand.seconds("2w") == 1_209_600)
        for bad in ["", "d", "1", "1y", "-1d", "0d", "abc"] { #expect(JournalCommand.seconds(bad) == nil, "\(bad)") }
    }

    @Test func theTextHasTheRunAndEachWriteWithItsStateAndChange() async throws {
        let folder = NSTemporaryDirectory() + "roster-journal-text-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = try ChangeJournal(path: folder + "/journal.sqlite")
        let run = JournalRun(connection: "prod", what: "Suspending", count: 2)
        try await journal.startRun(run)
        let ana = User.fixture()
        var suspended = ana
        suspended.status = .suspended
        let id = try await journal.begin(JournalEntry(runID: run.id, connection: "prod", kind: .user, objectID: ana.id,
                                                      label: "Ana Silva <ana@example.com>", action: .updateUser,
                                                      before: .user(ana), after: .user(suspended)))
        journal.complete(id, state: .done)
        _ = try await journal.begin(JournalEntry(connection: "lab", kind: .user, objectID: "u2", label: "Bo", action: .resetPassword))
        try await journal.finishRun(run.id, state: .done)
        let old = Date().addingTimeInterval(-3600)

        let lines = try await JournalCommand.lines(of: journal, since: old, label: "1h", connection: "prod")
        #expect(lines.first == "Roster's change journal since 1h ago: 1 run, 1 write")
        #expect(lines.contains { $0.contains("done  prod  Suspending: 2 users") })
        #expect(lines.contains { $0.contains("#\(id)  done  prod  user user-000001  Ana Silva <ana@example.com>: status active → suspended") })
        let all = try await JournalCommand.lines(of: journal, since: old, label: "1h", connection: nil)
        #expect(all.contains { $0.contains("pending  lab  user u2  Bo: password reset (not kept; cannot be undone)") })
        #expect(try await JournalCommand.lines(of: journal, since: Date().addingTimeInterval(60), label: "0m", connection: nil).count == 1)
    }
}
