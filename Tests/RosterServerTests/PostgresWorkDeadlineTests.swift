import Foundation
import NIOConcurrencyHelpers
import PostgresNIO
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
import Testing

/// A request's database work on PostgreSQL ends within its deadline, whatever the database
/// does: the caller hears `databaseUnavailable` (a 503), and the connection is closed under the
/// work so nothing it began lands.
@Suite("PostgreSQL work deadline")
struct PostgresWorkDeadlineTests {
    @Test("a write held past the deadline is answered at the deadline; its connection is closed, so nothing lands, and the next write goes through")
    func writeHeldPastTheDeadline() async throws {
        try await withTwoPools(firstWorkDeadline: .seconds(2)) { first, second in
            // Set up and checked through the second pool, whose deadline is the standard one:
            // under the whole suite a call may wait seconds for a thread.
            let held = PostgresStore(database: first), other = PostgresStore(database: second)
            let ada = try await other.create(UserDraft(name: "Ada", email: "ada@example.com"), at: Date())
            // The second pool locks the table every write begins with: the first's write waits there.
            try await second.withConnection(deadline: .seconds(120)) { holder in
                try await holder.query("BEGIN", logger: quietLogger)
                try await holder.query("LOCK TABLE roster_generation IN EXCLUSIVE MODE", logger: quietLogger)
                let started = ContinuousClock.now
                await #expect(throws: StoreError.databaseUnavailable) {
                    try await held.update(id: ada.id, with: UserDraft(name: "Ada King", email: "ada@example.com"), at: Date())
                }
                let waited = ContinuousClock.now - started
                #expect(waited >= .seconds(2) && waited < .seconds(60), "answered after \(waited), not when the lock went")
                // Closed under the write: PostgreSQL ends its backend, and with it the wait for the lock.
                let ended = try await eventually(within: .seconds(30)) {
                    let rows = try await holder.query(
                        // This test's database only: the cluster serves every suite at once.
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                        logger: quietLogger)
                    var waiting: Int64 = -1
                    for try await count in rows.decode(Int64.self) { waiting = count }
                    return waiting == 0
                }
                #expect(ended, "the abandoned write still waits for the lock")
                try await holder.query("COMMIT", logger: quietLogger)
            }
            let stored = try WireFormat.makeDecoder().decode(APIResponse<User>.self, from: Data(try await other.getEnvelope(id: ada.id)))
            #expect(stored.data?.name == "Ada", "the abandoned write did not land")
            let renamed = try await other.update(id: ada.id, with: UserDraft(name: "Ada King", email: "ada@example.com"), at: Date())
            #expect(renamed.name == "Ada King")
        }
    }

    @Test("a database that cannot be reached is databaseUnavailable, not a failure of the request")
    func unreachableDatabase() async throws {
        try await withTwoPools { first, _ in
            let store = PostgresStore(database: first)
            await first.close()
            await #expect(throws: StoreError.databaseUnavailable) { try await store.isEmpty() }
        }
    }
}

@Suite("Work deadline")
struct WorkDeadlineTests {
    @Test("work that ends in time answers with its result or its error")
    func inTime() async throws {
        let abandoned = Flag()
        // A deadline far off: under the whole suite a task may wait seconds for a thread.
        let value = try await WorkDeadline.run(within: .seconds(600), abandon: { abandoned.set() }) { 42 }
        #expect(value == 42)
        await #expect(throws: StoreError.notFound) {
            try await WorkDeadline.run(within: .seconds(600), abandon: { abandoned.set() }) { () async throws -> Int in
                throw StoreError.notFound
            }
        }
        #expect(!abandoned.isSet)
    }

    @Test("work that ignores cancellation is abandoned at the deadline, and the caller does not wait for it")
    func stuckWork() async throws {
        let abandoned = Flag()
        let parked = NIOLockedValueBox<CheckedContinuation<Void, Never>?>(nil)
        let started = ContinuousClock.now
        await #expect(throws: WorkDeadline.Passed.self) {
            try await WorkDeadline.run(within: .milliseconds(200), abandon: { abandoned.set() }) { () async throws -> Int in
                // Suspended and deaf to cancellation, as a query whose answer was lost.
                await withCheckedContinuation { continuation in parked.withLockedValue { $0 = continuation } }
                return 1
            }
        }
        // The work never ends until it is let go below: the caller was answered without it.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(abandoned.isSet)
        // Let the abandoned work end, as a late answer would end it.
        _ = await eventually { parked.withLockedValue { $0 } != nil }
        parked.withLockedValue { $0 }?.resume()
    }

    @Test("cancelling the caller cancels the work")
    func callerCancelled() async throws {
        let abandoned = Flag()
        let caller = Task {
            try await WorkDeadline.run(within: .seconds(600), abandon: { abandoned.set() }) { () async throws -> Int in
                try await Task.sleep(for: .seconds(600))
                return 1
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(ContinuousClock.now - started < .seconds(60), "ended by the cancel, not the 600 s")
        #expect(!abandoned.isSet)
    }
}
