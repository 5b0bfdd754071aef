import Logging
import PostgresNIO

/// `users_short_count` for a seed, counted in memory as SQLite's bulk load counts it: the seed
/// copies its rows in with the insert trigger off, because the trigger's SQL takes over a minute
/// for a million users (every gram of every user through a set-returning function).
extension ShortGramCounts {
    /// Adds the per-gram counts to the table's, in one statement (`users_count` is kept by its
    /// statement-level triggers, which the COPY fires).
    func addGrams(on connection: PostgresConnection, logger: Logger) async throws {
        var grams: [String] = [], roles: [String] = [], statuses: [String] = [], ns: [Int64] = []
        forEachGram { gram, role, status, users in
            grams.append(gram)
            roles.append(role)
            statuses.append(status)
            ns.append(Int64(users))
        }
        try await connection.query("""
            INSERT INTO users_short_count (gram, role, status, n)
                SELECT * FROM unnest(\(grams)::text[], \(roles)::text[], \(statuses)::text[], \(ns)::bigint[])
                ON CONFLICT (gram, role, status) DO UPDATE SET n = users_short_count.n + excluded.n
            """, logger: logger)
    }
}
