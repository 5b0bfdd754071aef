import Logging
import PostgresNIO
import RosterKit

/// The groups of a PostgreSQL bulk load and their memberships, in the load's transaction once
/// the users are in and indexed: a group and its members in one statement joining their ids
/// to the users, with the member count trigger off (it would update the group's row once per
/// membership) and the counts taken once from what went in.
enum PostgresBulkGroups {
    private static let countTrigger = "memberships_count"

    static func insert(_ directory: BulkDirectory, on connection: PostgresConnection, logger: Logger) async throws {
        guard !directory.groups.isEmpty else { return }
        try await connection.query(
            PostgresQuery(unsafeSQL: "ALTER TABLE memberships DISABLE TRIGGER \(countTrigger)"), logger: logger)
        for bulkGroup in directory.groups {
            let group = bulkGroup.group
            let memberIDs = bulkGroup.members.map { directory.users[$0].id }
            try await connection.query("""
                WITH new_group AS (
                    INSERT INTO groups (id, name, name_key, created_at, updated_at)
                    VALUES (\(group.id), \(group.name), \(SortKey.of(group.name)),
                            \(Milliseconds.of(group.createdAt)), \(Milliseconds.of(group.updatedAt)))
                    RETURNING seq
                )
                INSERT INTO memberships (group_seq, user_seq)
                SELECT new_group.seq, users.seq
                FROM new_group, unnest(\(memberIDs)::text[]) AS member (id) JOIN users ON users.id = member.id
                """, logger: logger)
        }
        // The counts are what went in, as the trigger would have kept them.
        try await connection.query("""
            UPDATE groups SET member_count = counted.members
            FROM (SELECT group_seq, count(*) AS members FROM memberships GROUP BY group_seq) AS counted
            WHERE groups.seq = counted.group_seq
            """, logger: logger)
        try await connection.query(
            PostgresQuery(unsafeSQL: "ALTER TABLE memberships ENABLE TRIGGER \(countTrigger)"), logger: logger)
    }
}
