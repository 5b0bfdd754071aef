import Foundation
import GRDB
import GRDBSQLite
import RosterKit
import Synchronization

/// A time after which the statement running on one connection gives up.
///
/// SQLite calls the connection's progress handler every `checkInterval` virtual-machine
/// instructions (a few microseconds of work); once the deadline has passed it answers "stop",
/// and the statement fails with SQLITE_INTERRUPT at once, wherever it was in its scan. Unlike
/// `sqlite3_interrupt` from a timer, nothing can reach a later statement that reused the
/// connection: the deadline is cleared, on the connection's own thread, before it is handed on.
final class QueryDeadline: Sendable {
    static let checkInterval: Int32 = 1000

    /// Uptime in nanoseconds; 0 when no deadline is set.
    private let nanoseconds = Atomic<UInt64>(0)

    func set(after budget: Duration) {
        let budgetNanoseconds = UInt64(max(0, budget.nanoseconds))
        nanoseconds.store(DispatchTime.now().uptimeNanoseconds + max(1, budgetNanoseconds), ordering: .relaxed)
    }

    func clear() {
        nanoseconds.store(0, ordering: .relaxed)
    }

    var hasPassed: Bool {
        let deadline = nanoseconds.load(ordering: .relaxed)
        return deadline != 0 && DispatchTime.now().uptimeNanoseconds >= deadline
    }

    /// Makes `db`'s statements check this deadline. The deadline must outlive the connection.
    func install(on db: Database) {
        sqlite3_progress_handler(db.sqliteConnection, Self.checkInterval, { context in
            guard let context else { return 0 }
            return Unmanaged<QueryDeadline>.fromOpaque(context).takeUnretainedValue().hasPassed ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Whether `error` is a statement stopped by a deadline.
    static func isInterruption(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_INTERRUPT
    }
}
