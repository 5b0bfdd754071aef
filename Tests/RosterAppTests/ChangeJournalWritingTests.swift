import Foundation
import RosterJournal
import RosterKit
import Testing
import RosterKitTestSupport

/// How the journal writes (JournalGroupCommit): a pending entry is committed before `begin`
/// returns, even to a second journal on the same file (another roster); a completion is
/// written with the next transaction, or on its own shortly after; every read sees what was
/// handed in before it; many workers at once lose nothing and mix nothing up.
@Suite("Change journal writing", .timeLimit(.minutes(2)))
struct ChangeJournalWritingTests {
    let scratch = TemporaryFolder("journal-writing")
    /// In a folder the journal makes.
    var path: String { scratch.path("state/journal.sqlite") }

    func entry(_ n: Int, run: String? = nil) -> JournalEntry {
        let user = User(id: "u\(n)", name: "Ana \(n)", email: "ana\(n)@example.com", role: .member, status: .active,
                        createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
        var after = user
        after.status = .suspended
        return JournalEntry(runID: run, connection: "test", kind: .user, objectID: user.id, label: "Ana \(n)", action: .updateUser,
                            before: .user(user), after: .user(after))
    }

    @Test func aPendingEntryIsOnDiskWhenBeginReturns() async throws {
        let journal = try ChangeJournal(path: path)
        let id = try await journal.begin(entry(1))
        // Another roster opening the same file sees it at once: it was committed, not queued.
        let other = try ChangeJournal(path: path)
        let seen = try #require(try await other.entry(id: id))
        #expect(seen.state == .pending)
        #expect(seen.before?.user?.status == .active)
        #expect(seen.after?.user?.status == .suspended)
    }

    @Test func aCompletionGoesInWithTheNextEntry() async throws {
        let journal = try ChangeJournal(path: path)
        let other = try ChangeJournal(path: path)
        let first = try await journal.begin(entry(1))
        journal.complete(first, state: .done, etag: "W/\"2\"")
        let second = try await journal.begin(entry(2))
        // Read through the second journal, which has nothing waiting of its own: what it sees
        // is what is on disk.
        #expect(try await other.entry(id: first)?.state == .done)
        #expect(try await other.entry(id: first)?.etag == "W/\"2\"")
        #expect(try await other.entry(id: second)?.state == .pending)
    }

    @Test func aCompletionWithNothingAfterItIsWrittenOnItsOwn() async throws {
        let journal = try ChangeJournal(path: path)
        let other = try ChangeJournal(path: path)
        let id = try await journal.begin(entry(1))
        journal.complete(id, state: .failed, detail: "refused")
        #expect(try await eventually(within: .seconds(1), poll: .milliseconds(10)) { try await other.entry(id: id)?.state == .failed })
        #expect(try await other.entry(id: id)?.detail == "refused")
    }

    @Test func aReadSeesEveryCompletionHandedInBeforeIt() async throws {
        let journal = try ChangeJournal(path: path)
        let id = try await journal.begin(entry(1))
        journal.complete(id, state: .done)
        #expect(try await journal.entry(id: id)?.state == .done)
    }

    @Test func aRunEndsAfterItsCompletions() async throws {
        let journal = try ChangeJournal(path: path)
        let run = JournalRun(connection: "test", what: "Suspending", count: 3)
        try await journal.startRun(run)
        var ids: [Int64] = []
        for n in 1...3 {
            let id = try await journal.begin(entry(n, run: run.id))
            journal.complete(id, state: .done)
            ids.append(id)
        }
        try await journal.finishRun(run.id, state: .done)
        let other = try ChangeJournal(path: path)
        #expect(try await other.entries(ofRun: run.id).map(\.state) == [.done, .done, .done])
        #expect(try await other.run(id: run.id)?.state == .done)
    }

    @Test func manyWorkersAtOnceLoseNothing() async throws {
        let journal = try ChangeJournal(path: path)
        let run = JournalRun(connection: "test", what: "Suspending", count: 400)
        try await journal.startRun(run)
        let ids = try await withThrowingTaskGroup(of: (Int, Int64).self) { group in
            for n in 0..<400 {
                group.addTask {
                    let id = try await journal.begin(entry(n, run: run.id))
                    journal.complete(id, state: n % 7 == 0 ? .failed : .done, objectID: "u\(n)")
                    return (n, id)
                }
            }
            return try await group.reduce(into: [Int: Int64]()) { $0[$1.0] = $1.1 }
        }
        try await journal.flush()
        let entries = try await ChangeJournal(path: path).entries(ofRun: run.id)
        #expect(entries.count == 400)
        #expect(Set(entries.map(\.id)) == Set(ids.values))
        for entry in entries {
            let n = Int(entry.objectID.dropFirst())!
            #expect(ids[n] == entry.id)
            #expect(entry.label == "Ana \(n)")
            #expect(entry.state == (n % 7 == 0 ? .failed : .done))
        }
    }
}
