import GRDB
import RosterKit

/// Who is in which group: the `memberships` table, by row `seq` of group and user.
enum Memberships {
    /// A user's groups as the user carries them: by folded name, then id.
    static func groups(ofUserSeq userSeq: Int64, in db: Database) throws -> [GroupReference] {
        let statement = try db.cachedStatement(sql: """
            SELECT groups.id, groups.name FROM memberships JOIN groups ON groups.seq = memberships.group_seq
            WHERE memberships.user_seq = ? ORDER BY groups.name_key, groups.id
            """)
        return try Row.fetchAll(statement, arguments: [userSeq]).map { GroupReference(id: $0[0], name: $0[1]) }
    }

    static func userSeqs(ofGroupSeq groupSeq: Int64, in db: Database) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(literal: "SELECT user_seq FROM memberships WHERE group_seq = \(groupSeq)"))
    }
}
