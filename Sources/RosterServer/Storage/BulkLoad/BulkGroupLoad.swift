import GRDB
import RosterKit

/// The groups of SQLite's bulk load (`BulkLoad`) and their memberships, after the users.
///
/// A group's members go in with one statement that reads their `seq`s from a JSON array,
/// with the member count trigger dropped for the load: a million users' 1.1 million
/// memberships inserted row by row with it, each bound through `StatementArguments`, cost
/// seconds; this way the whole demo's groups take a fraction of one.
enum BulkGroupLoad {
    private static let countTrigger = "memberships_count_insert"

    /// Inserts `groups`; a member is the user whose `seq` is at its place in `userSeqs`.
    static func insert(_ groups: [BulkGroup], userSeqs: [Int64], in db: Database) throws {
        guard !groups.isEmpty else { return }
        let trigger = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", arguments: [countTrigger])
        if trigger != nil { try db.execute(sql: "DROP TRIGGER \(countTrigger)") }
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
        if let trigger { try db.execute(sql: trigger) }
    }
}
