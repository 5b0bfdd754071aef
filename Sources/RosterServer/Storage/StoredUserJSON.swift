import GRDB

/// Keeps `users.json` (the user as the API writes it, groups included) true after a change
/// that is not to the user's own row: a membership, or the name of a group they are in.
/// Called inside the changing transaction, so no reader ever sees the old groups. The user's
/// SCIM version moves too: their `groups` attribute changed.
enum StoredUserJSON {
    static func refresh(userSeqs: some Sequence<Int64>, in db: Database) throws {
        let select = try db.cachedStatement(sql: "SELECT \(UserRow.columns) FROM users WHERE seq = ?")
        let update = try db.cachedStatement(sql: "UPDATE users SET json = ?, revision = revision + 1 WHERE seq = ?")
        for seq in userSeqs {
            guard var user = try Row.fetchOne(select, arguments: [seq]).map(UserRow.user(from:)) else { continue }
            user.groups = try Memberships.groups(ofUserSeq: seq, in: db)
            try update.execute(arguments: [UserJSON.objectText(user), seq])
        }
    }
}
