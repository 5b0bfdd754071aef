import GRDB
import RosterKit

/// SQLite's write transactions, each one that may await between its statements, so the write
/// rules run on SQLite as they do on PostgreSQL (`RowStore`).
///
/// GRDB's `write` takes one synchronous closure. Here a transaction begins, runs statement by
/// statement on the pool's writer connection (`SQLiteTransaction.run`), and commits or rolls
/// back, while `turns` keeps every other writer of this store out until it has. The pool must
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
        try await Task {
            try await turns.inTurn {
                let transaction = SQLiteTransaction(pool: pool)
                try await transaction.run { db in try db.beginTransaction(.immediate) }
                do {
                    let result = try await body(transaction)
                    // The commit waits for the WAL's fsync: on the writer's queue, not here.
                    try await transaction.run(mayTakeLong: true) { db in try db.commit() }
                    return result
                } catch {
                    try? await transaction.run { db in
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

    /// Runs `statements` on the writer connection, inside the transaction. Short ones run on
    /// this thread: the transaction has the writer to itself, so they wait for nothing, and a
    /// hop to the writer's queue and back costs more than most statements (sequential calls
    /// over HTTP, a release build: a membership change took 0.62 ms with every statement
    /// hopping, 0.39 ms so, 0.35 ms as one closure in GRDB's own transaction).
    /// Statements that may take long (`mayTakeLong`: a commit, a change to many users) run on
    /// the writer's queue instead, holding no thread of the cooperative pool.
    func run<T: Sendable>(mayTakeLong: Bool = false, _ statements: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard mayTakeLong else { return try runHere(statements) }
        return try await pool.writeWithoutTransaction(statements)
    }

    private func runHere<T>(_ statements: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction(statements)
    }
}
