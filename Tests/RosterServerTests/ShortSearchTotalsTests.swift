import Foundation
import GRDB
import RosterKit
@testable import RosterServer
import Testing

/// Searches of one or two characters take their totals from `users_short_count` (kept by
/// triggers, filled in bulk when seeding, backfilled by migration v5). Every total must equal
/// the count `instr` over every user gives, whatever was written before.
@Suite("Short searches: totals from the per-gram counts equal a full count")
struct ShortSearchTotalsTests {
    private static let patterns = ["a", "e", "ma", "an", "a.", "@e", "é", "ü", "ov", "김", "zz", "q", "\"", "'c"]

    private static func temporaryPath() -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-short-\(UUID().uuidString)")
        return (directory, directory.appendingPathComponent("users.sqlite").path)
    }

    /// Compares each pattern's total (alone and with a role and a status filter) with a count
    /// of the users whose folded keys contain it.
    private static func expectTotalsMatchFullCount(_ store: SQLiteStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for pattern in patterns {
            for (role, status) in [(nil, nil), (Role.admin, nil), (nil, Status.suspended), (Role.member, Status.active)] as [(Role?, Status?)] {
                let total = try await store.list(UserQuery(search: pattern, role: role, status: status)).total
                let folded = SortKey.of(pattern)
                let counted = try await store.pool.read { db in
                    try Int.fetchOne(db, sql: """
                        SELECT count(*) FROM users WHERE (instr(name_key, ?) > 0 OR instr(email_key, ?) > 0)
                          AND (? IS NULL OR role = ?) AND (? IS NULL OR status = ?)
                        """, arguments: [folded, folded, role?.rawValue, role?.rawValue, status?.rawValue, status?.rawValue]) ?? -1
                }
                #expect(total == counted, "q=\(pattern) role=\(String(describing: role)) status=\(String(describing: status))",
                        sourceLocation: sourceLocation)
            }
        }
    }

    @Test("after a bulk seed, and after creates, renames, role changes and deletes")
    func totalsFollowWrites() async throws {
        let (directory, path) = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: path)
        try await store.bulkInsert(DemoData.users(count: 800))
        try await Self.expectTotalsMatchFullCount(store)

        let now = Date()
        let created = try await store.create(UserDraft(name: "Zzé Qüov \"Quote\"", email: "zz.q'c@example.com", role: .admin), at: now)
        let other = try await store.create(UserDraft(name: "김민준", email: "minjun@example.com", status: .suspended), at: now)
        try await Self.expectTotalsMatchFullCount(store)
        _ = try await store.update(id: created.id, with: UserDraft(name: "Plain", email: "plain@example.com", role: .member, status: .active), at: now)
        let someone = try await store.list(UserQuery(perPage: 3)).items
        _ = try await store.update(id: someone[0].id, with: UserDraft(name: someone[0].name, email: someone[0].email, role: .admin), at: now)
        try await Self.expectTotalsMatchFullCount(store)
        _ = try await store.delete(id: other.id, at: Date())
        _ = try await store.delete(id: someone[1].id, at: Date())
        try await Self.expectTotalsMatchFullCount(store)
        try store.pool.close()
    }

    @Test("migration v5 counts the users a database already had")
    func backfill() async throws {
        let (directory, path) = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in db.add(function: ShortGrams.sqlFunction()) }
            let older = try DatabaseQueue(path: path, configuration: configuration)
            try Schema.migrator.migrate(older, upTo: "v4: SCIM user names, documents and versions")
            try await older.write { db in
                for user in DemoData.users(count: 300) {
                    try db.execute(sql: UserRow.insertSQL, arguments: UserRow.insertArguments(user))
                }
            }
            try older.close()
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.list(UserQuery()).total == 300)
        try await Self.expectTotalsMatchFullCount(store)
        try store.pool.close()
    }

    @Test("a gram's text survives its code: one and two scalars, quotes and backslashes")
    func codes() {
        let codes = ShortGrams.codes(of: ["a\"b", "\\a"])
        #expect(Set(codes.map(ShortGrams.text)) == ["a", "\"", "b", "a\"", "\"b", "\\", "\\a"])
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
    }
}
