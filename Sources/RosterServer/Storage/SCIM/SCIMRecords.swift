import Foundation
import GRDB
import RosterKit

/// A user as SCIM reads them: the Roster user (groups included), their userName, the SCIM
/// document (nil when never written over SCIM) and the revision behind their ETag.
struct SCIMUserRecord: SCIMVersioned {
    var seq: Int64
    var user: User
    var userName: String
    var document: SCIMObject?
    var revision: Int64

    var version: String { ETag.weak(revision) }

    static let columns = """
        users.seq, users.id, users.name, users.email, users.role, users.status, users.created_at, users.updated_at, \
        coalesce(users.user_name, users.email), users.scim, users.revision
        """
}

extension SCIMUserRecord {
    /// Reads a row of `columns`; the groups are read separately (`withGroups`).
    init(row: Row) {
        seq = row[0]
        user = User(
            id: row[1], name: row[2], email: row[3], role: Role(rawValue: row[4]), status: Status(rawValue: row[5]),
            createdAt: Milliseconds.date(row[6]), updatedAt: Milliseconds.date(row[7]))
        userName = row[8]
        document = SCIMDocumentColumn.read(row[9])
        revision = row[10]
    }

    static func fetch(id: String, in db: Database) throws -> SCIMUserRecord? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM users WHERE id = ?")
        return try Row.fetchOne(statement, arguments: [id]).map { try SCIMUserRecord(row: $0).withGroups(in: db) }
    }

    func withGroups(in db: Database) throws -> SCIMUserRecord {
        var record = self
        record.user.groups = try Memberships.groups(ofUserSeq: seq, in: db)
        return record
    }
}

/// A group as SCIM reads it: the Roster group, its document, revision, and members.
struct SCIMGroupRecord: SCIMVersioned {
    var seq: Int64
    var group: Group
    var document: SCIMObject?
    var revision: Int64
    var members: [GroupMember]

    var version: String { ETag.weak(revision) }

    static let columns = "\(GroupRow.columns), groups.seq, groups.scim, groups.revision"
}

extension SCIMGroupRecord {
    init(row: Row) {
        group = GroupRow.group(from: row)
        seq = row[5]
        document = SCIMDocumentColumn.read(row[6])
        revision = row[7]
        members = []
    }

    static func fetch(id: String, in db: Database) throws -> SCIMGroupRecord? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM groups WHERE id = ?")
        return try Row.fetchOne(statement, arguments: [id]).map { try SCIMGroupRecord(row: $0).withMembers(in: db) }
    }

    func withMembers(in db: Database) throws -> SCIMGroupRecord {
        var record = self
        let statement = try db.cachedStatement(sql: """
            SELECT users.id, users.name FROM memberships JOIN users ON users.seq = memberships.user_seq
            WHERE memberships.group_seq = ? ORDER BY users.name_key, users.id
            """)
        record.members = try Row.fetchAll(statement, arguments: [seq]).map { GroupMember(id: $0[0], name: $0[1]) }
        return record
    }
}

/// One member of a group, as the group lists it.
struct GroupMember: Sendable, Equatable {
    var id: String
    var name: String
}

/// What a SCIM create, replace or patch of a user writes.
struct SCIMUserWrite: Sendable {
    var userName: String
    var name: String
    var email: String
    var role: Role
    var status: Status
    var document: SCIMObject
}

extension SCIMUserWrite {
    /// The Roster user as this write leaves them; `updatedAt` never falls before their creation.
    func applied(to current: User, atMilliseconds milliseconds: Int64) -> User {
        var user = current
        user.name = name
        user.email = email
        user.role = role
        user.status = status
        user.updatedAt = Milliseconds.date(max(milliseconds, Milliseconds.of(user.createdAt)))
        return user
    }
}

/// What a SCIM create, replace or patch of a group writes: members are user ids.
struct SCIMGroupWrite: Sendable {
    var name: String
    var document: SCIMObject
    var memberIDs: [String]
}

/// The `scim` columns: a JSON object as text, or NULL (on PostgreSQL, `scim_json` holds it as jsonb too).
enum SCIMDocumentColumn {
    static func read(_ text: String?) -> SCIMObject? {
        guard let text else { return nil }
        // Written by `text(_:)` only, so it parses; an unreadable one reads as empty, not as a 500.
        return (try? SCIMJSONParser.parse(text))?.object ?? SCIMObject()
    }

    static func text(_ document: SCIMObject) -> String {
        SCIMJSONWriter.text(.object(document))
    }
}

/// A SCIM resource as read for a write: its version is what `If-Match` is compared with.
protocol SCIMVersioned: Sendable {
    var version: String { get }
}

/// Weak entity tags from revisions, and `If-Match` / `If-None-Match` lists compared weakly
/// (RFC 9110 section 13.1): `W/"3"` matches `"3"` and `W/"3"`; `*` matches any version.
enum ETag {
    static func weak(_ revision: Int64) -> String { "W/\"\(revision)\"" }

    /// Refuses a write whose `If-Match` names none of the resource's current version.
    static func check(ifMatch: String?, version: String) throws(StoreError) {
        if let ifMatch, !matches(ifMatch, version: version) { throw .versionMismatch }
    }

    static func matches(_ header: String, version: String) -> Bool {
        let wanted = opaque(version)
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || opaque(tag) == wanted
        }
    }

    private static func opaque(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }
}
