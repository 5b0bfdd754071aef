import GRDB
import RosterKit

/// Loads many users into an empty directory fast: `roster-server --seed 1000000`.
///
/// Keeping every index and trigger while inserting a million rows makes each insert update
/// seven B-trees in random order and the trigram index row by row (105 s for a million). Here
/// the `users` table's secondary indexes and its insert triggers are dropped inside the
/// transaction, the rows go in (in batches of one prepared statement), and then the indexes
/// are built again from the very SQL the schema created them with (read back from
/// `sqlite_master`, so the schema stays the one source), the trigram index is rebuilt in one
/// pass and the per-(role, status) counts are summed once. All in one transaction: a reader
/// sees no users, then all of them, indexed.
enum BulkLoad {
    /// The insert triggers whose work is redone in bulk afterwards.
    private static let deferredTriggers = ["users_search_insert", "users_count_insert"]

    /// Inserts `users`, which must all be new (an id or email already taken fails the whole load).
    static func insert(_ users: [User], in db: Database) throws {
        let deferred = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE tbl_name = 'users' AND sql IS NOT NULL
              AND (type = 'index' OR (type = 'trigger' AND name IN ('\(deferredTriggers.joined(separator: "','"))')))
            """).map { (type: $0["type"] as String, name: $0["name"] as String, sql: $0["sql"] as String) }
        for item in deferred {
            try db.execute(sql: "DROP \(item.type == "index" ? "INDEX" : "TRIGGER") \(item.name)")
        }

        let statement = try db.makeStatement(sql: UserRow.insertSQL)
        for user in users {
            try statement.execute(arguments: UserRow.insertArguments(user))
        }

        for item in deferred {
            try db.execute(sql: item.sql)
        }
        try db.execute(sql: "INSERT INTO users_search(users_search) VALUES ('rebuild')")
        try db.execute(sql: """
            DELETE FROM users_count;
            INSERT INTO users_count(role, status, n) SELECT role, status, count(*) FROM users GROUP BY role, status;
            """)
    }
}
