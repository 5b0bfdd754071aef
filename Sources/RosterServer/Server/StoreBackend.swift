import Logging

/// The store a server runs on, opened from its `DatabaseLocation`, and how to close it.
struct StoreBackend: Sendable {
    let store: any DirectoryStore
    /// SCIM runs on SQLite only so far; nil on PostgreSQL, where `/scim/v2` answers 501.
    let scimStore: (any SCIMStore)?
    let close: @Sendable () async -> Void

    static func open(_ location: DatabaseLocation, queryBudget: Duration, logger: Logger) async throws -> StoreBackend {
        switch location {
        case .sqlite(let path):
            let pool = try UserDatabase.open(path: path)
            let store = UserStore(pool: pool, queryBudget: queryBudget)
            return StoreBackend(store: store, scimStore: store, close: { _ = try? pool.close() })
        case .postgres(let url):
            let database = try await PostgresDatabase.open(url: url, logger: logger)
            return StoreBackend(store: PostgresUserStore(database: database, queryBudget: queryBudget), scimStore: nil, close: { await database.close() })
        }
    }
}
