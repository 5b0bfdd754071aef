import GRDB
import RosterKit

/// SQLite's write transactions, each one that may await between its statements, so the write
/// rules run on SQLite as they do on PostgreSQL (`RowStore`).
///
/// GRDB's `write` takes one synchronous closure. Here a transaction begins, runs statement by
/// statement on the pool's writer connection (`SQLiteTransaction.run`), and commits or rolls
/// back, all on `SQLiteWriterThread`, while `turns` keeps every other writer of this store out
/// until it has. The pool must
/// allow transactions that outlive one access (`SQLiteDatabase.open`). Other processes are kept
/// out by SQLite's own write lock, which BEGIN IMMEDIATE takes.
struct SQLiteWriter: Sendable {
    let pool: DatabasePool
    private let turns = WriteTurns()

    init(pool: DatabasePool) {
        self.pool = pool
    }

    /// One transaction around `body`. It runs to COMMIT or ROLLBACK whatever happens to the
    /// task that asked: GRDB cancels a cancelled task's statement by interrupting it, which
    /// in an explicit transaction rolls the whole transaction back, and the statements that
    /// followed would then each commit on their own.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) async throws -> T) async throws -> T {
        try await Task(executorPreference: SQLiteWriterThread.shared) {
            try await turns.inTurn {
                let transaction = SQLiteTransaction(pool: pool)
                try transaction.run { db in try db.beginTransaction(.immediate) }
                do {
                    let result = try await body(transaction)
                    try transaction.run { db in try db.commit() }
                    return result
                } catch {
                    try? transaction.run { db in
                        if db.isInsideTransaction { try db.rollback() }
                    }
                    throw error
                }
            }
        }.value
    }

    /// One transaction of one synchronous closure: GRDB's own `write`, in its turn.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await turns.inTurn { try await pool.write(updates) }
    }
}

/// The statements of one `SQLiteWriter` transaction.
struct SQLiteTransaction: Sendable {
    fileprivate let pool: DatabasePool

    /// Runs `statements` on the writer connection, inside the transaction, on this thread
    /// (`SQLiteWriterThread`): the transaction has the writer to itself, so they wait for
    /// nothing, and may block this thread as long as they take.
    func run<T>(_ statements: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction(statements)
    }
}
