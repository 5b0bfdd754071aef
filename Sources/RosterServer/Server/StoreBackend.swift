import Logging

/// The store a server runs on, opened from its `DatabaseLocation`, and how to close it.
struct StoreBackend: Sendable {
    let store: any DirectoryStore
    /// The same store, as `/scim/v2` reads and writes it.
    let scimStore: any SCIMStore
    /// The named tokens, in the same database.
    let tokenStore: any TokenStore
    /// The audit log, in the same database.
    let auditLog: any AuditLog
    let close: @Sendable () async -> Void

    static func open(
        _ location: DatabaseLocation, queryBudget: Duration, workDeadline: Duration = PostgresDatabase.standardWorkDeadline, logger: Logger
    ) async throws -> StoreBackend {
        switch location {
        case .sqlite(let path):
            let pool = try SQLiteDatabase.open(path: path)
            let store = SQLiteStore(pool: pool, queryBudget: queryBudget)
            return StoreBackend(store: store, scimStore: store, tokenStore: store, auditLog: store, close: { _ = try? pool.close() })
        case .postgres(let url):
            let database = try await PostgresDatabase.open(url: url, logger: logger, workDeadline: workDeadline)
            let store = PostgresStore(database: database, queryBudget: queryBudget)
            return StoreBackend(store: store, scimStore: store, tokenStore: store, auditLog: store, close: { await database.close() })
        }
    }
}
