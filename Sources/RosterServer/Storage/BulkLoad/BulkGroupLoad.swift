import GRDB
import RosterKit

/// The groups of SQLite's bulk load (`BulkLoad`) and their memberships, after the users.
///
/// A group's members go in with one statement that reads their `seq`s from a JSON array. The
/// member count trigger and the by-user index are dropped for the load and made again from
/// their own SQL afterwards (as `BulkLoad` does for the users'): the count is set once per
/// group, and the index is built in one sorted pass instead of row by row.
enum BulkGroupLoad {
    /// Inserts `groups`; a member is the user whose `seq` is at its place in `userSeqs`.
    static func insert(_ groups: [BulkGroup], userSeqs: [Int64], in db: Database) throws {
        guard !groups.isEmpty else { return }
        let deferred = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE (type = 'trigger' AND name = 'memberships_count_insert') OR (type = 'index' AND name = 'memberships_by_user')
            """).map { (type: $0["type"] as String, name: $0["name"] as String, sql: $0["sql"] as String) }
        for item in deferred {
            try db.execute(sql: "DROP \(item.type == "index" ? "INDEX" : "TRIGGER") \(item.name)")
        }
        for bulkGroup in groups {
            let group = bulkGroup.group
            try db.execute(literal: """
                INSERT INTO groups (id, name, name_key, created_at, updated_at)
                VALUES (\(group.id), \(group.name), \(SortKey.of(group.name)),
                        \(Milliseconds.of(group.createdAt)), \(Milliseconds.of(group.updatedAt)))
                """)
            let groupSeq = db.lastInsertedRowID
            let seqs = "[" + bulkGroup.members.map { String(userSeqs[$0]) }.joined(separator: ",") + "]"
            try db.execute(literal: "INSERT INTO memberships (group_seq, user_seq) SELECT \(groupSeq), value FROM json_each(\(seqs))")
            // The count is what went in, as the trigger would have kept it.
            let memberCount = db.changesCount
            try db.execute(literal: "UPDATE groups SET member_count = \(memberCount) WHERE seq = \(groupSeq)")
        }
        for item in deferred {
            try db.execute(sql: item.sql)
        }
    }
}
