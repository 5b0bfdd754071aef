import Logging
import PostgresNIO
import RosterKit

/// `users_short_count` for many users at once, counted here: the seed copies its rows in with
/// the insert trigger off, because the trigger's SQL takes over a minute for a million users
/// (every gram of every user through a set-returning function), and this about a second.
struct PostgresShortGramCounts {
    /// By gram code (`ShortGrams.Code`, 43 bits) with the (role, status) pair's index above it.
    private var counts: [UInt64: Int64] = [:]
    private var pairs: [(role: String, status: String)] = []
    private var pairIndexes: [String: UInt64] = [:]
    private static let pairShift: UInt64 = 48

    mutating func add(_ user: User) {
        let pairKey = user.role.rawValue + "\t" + user.status.rawValue
        let pair: UInt64
        if let known = pairIndexes[pairKey] {
            pair = known
        } else {
            pair = UInt64(pairs.count)
            pairs.append((user.role.rawValue, user.status.rawValue))
            pairIndexes[pairKey] = pair
        }
        for code in ShortGrams.codes(of: [SortKey.of(user.name), SortKey.of(user.email)]) {
            counts[pair << Self.pairShift | code, default: 0] += 1
        }
    }

    /// Adds the counts to the table's, in one statement.
    func write(on connection: PostgresConnection, logger: Logger) async throws {
        var grams: [String] = [], roles: [String] = [], statuses: [String] = [], ns: [Int64] = []
        for (key, n) in counts {
            let pair = pairs[Int(key >> Self.pairShift)]
            grams.append(ShortGrams.text(of: key & (1 << Self.pairShift - 1)))
            roles.append(pair.role)
            statuses.append(pair.status)
            ns.append(n)
        }
        try await connection.query("""
            INSERT INTO users_short_count (gram, role, status, n)
                SELECT * FROM unnest(\(grams)::text[], \(roles)::text[], \(statuses)::text[], \(ns)::bigint[])
                ON CONFLICT (gram, role, status) DO UPDATE SET n = users_short_count.n + excluded.n
            """, logger: logger)
    }
}
