import Foundation
import GRDB
import PostgresNIO
import RosterKit
@testable import RosterServer
import Testing

/// The filters identity providers send are answered from indexed rows and columns
/// (`user_emails`, externalId's, displayName's and lastModified's indexes, the trigram tables):
/// for thousands of random filters, on a directory written through every write path (bulk
/// load, Roster API creates, updates and deletes, SCIM creates, replaces and deletes), each
/// answer must equal the one read from the documents themselves, on both engines.
@Suite("SCIM filters through the indexes answer as a scan of the documents does")
struct SCIMIndexedFilterTests {
    /// Runs a plan's page (ids, in order) and total.
    typealias Run = @Sendable (SCIMListPlan) async throws -> (ids: [String], total: Int)

    @Test("SQLite: random filters, indexed against scanned")
    func sqlite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-scim-indexed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("users.sqlite").path, queryBudget: QueryBudget.notUnderTest)
        let values = try await Self.fill(store)
        let pool = store.pool
        try await Self.compare(dialect: SQLiteSCIMDialect(), values: values) { plan in
            try await pool.read { db in
                (try String.fetchAll(db, sql: plan.pageSQL, arguments: SQLiteSCIMDialect.statementArguments(plan.pageArguments)),
                 try Int.fetchOne(db, sql: plan.countSQL, arguments: SQLiteSCIMDialect.statementArguments(plan.countArguments)) ?? 0)
            }
        }
        try store.pool.close()
    }

    @Test("PostgreSQL: random filters, indexed against scanned")
    func postgres() async throws {
        try await withTwoPools { database, _ in
            let values = try await Self.fill(PostgresStore(database: database, queryBudget: QueryBudget.notUnderTest))
            try await Self.compare(dialect: PostgresSCIMDialect(), values: values) { plan in
                try await database.client.withConnection { connection in
                    var ids: [String] = []
                    for try await id in try await connection.query(
                        PostgresSCIMDialect.query(plan.pageSQL, plan.pageArguments), logger: quietLogger
                    ).decode(String.self) {
                        ids.append(id)
                    }
                    var total = 0
                    for try await count in try await connection.query(
                        PostgresSCIMDialect.query(plan.countSQL, plan.countArguments), logger: quietLogger
                    ).decode(Int.self) {
                        total = count
                    }
                    return (ids, total)
                }
            }
        }
    }

    /// What the directory holds, for filters to look for: texts and times.
    struct Values {
        var texts: [String] = []
        var times: [Date] = []
    }

    /// A directory written through every write path; returns the values filters pick from.
    private static func fill(_ store: some DirectoryStore & SCIMStore) async throws -> Values {
        var random = SeededGenerator(seed: 31)
        var values = Values()
        try await store.bulkInsert(DemoData.users(count: 150))
        let base = Date(timeIntervalSince1970: 1_764_000_000)
        var clock = 0
        func now() -> Date {
            clock += 1
            return base.addingTimeInterval(TimeInterval(clock))
        }
        let types = ["work", "home", "Work", "other", nil]
        let domains = ["example.org", "Example.COM", "ivanov.net", "çelik.example"]
        let names = ["Ivan", "ivana", "Anna", "Çelik", "ÉMILE", "Zoë", "bob", "İlker", "ivan ivanov"]
        func email(_ index: Int) -> String {
            "\(names.randomElement(using: &random)!.replacingOccurrences(of: " ", with: "."))\(index)@\(domains.randomElement(using: &random)!)"
        }
        func document(_ index: Int) -> String {
            var entries: [String] = []
            for entry in 0..<Int.random(in: 1...3, using: &random) {
                var fields = [#""value":\#(jsonString(email(index * 10 + entry)))"#]
                if let type = types.randomElement(using: &random)! { fields.append(#""type":\#(jsonString(type))"#) }
                switch Int.random(in: 0..<3, using: &random) {
                case 0: fields.append(#""primary":true"#)
                case 1: fields.append(#""primary":false"#)
                default: break
                }
                if Bool.random(using: &random) { fields.append(#""display":\#(jsonString(names.randomElement(using: &random)!))"#) }
                entries.append("{" + fields.joined(separator: ",") + "}")
            }
            var members = [#""userName":"scim-user-\#(index)-\#(clock)""#, #""emails":[\#(entries.joined(separator: ","))]"#]
            if Int.random(in: 0..<3, using: &random) > 0 {
                members.append(#""externalId":\#(jsonString("\(["ext", "EXT", "okta-"].randomElement(using: &random)!)\(index)"))"#)
            }
            if Bool.random(using: &random) {
                members.append(#""displayName":\#(jsonString("\(names.randomElement(using: &random)!) \(index)"))"#)
            }
            return "{" + members.joined(separator: ",") + "}"
        }

        var scimIDs: [String] = []
        var rosterIDs: [String] = []
        for index in 0..<60 {
            let body = try SCIMJSONParser.parse(document(index))
            scimIDs.append(try await store.createSCIMUser(try SCIMUserResource.write(from: body, current: nil), at: now()).user.id)
        }
        for index in 0..<30 {
            let draft = UserDraft(name: "\(names.randomElement(using: &random)!) Roster\(index)", email: email(1000 + index))
            rosterIDs.append(try await store.create(draft, at: now()).id)
        }
        // SCIM replaces (the emails change whole), Roster API edits of SCIM users and of
        // others (the document follows), and deletes of both.
        for (offset, id) in scimIDs.prefix(20).enumerated() {
            let body = try SCIMJSONParser.parse(document(500 + offset))
            _ = try await store.modifySCIMUser(id: id, ifMatch: nil, at: now()) { current in
                try SCIMUserResource.write(from: body, current: current)
            }
        }
        for (offset, id) in (scimIDs[20..<30] + rosterIDs.prefix(10)).enumerated() {
            _ = try await store.update(id: id, with: UserDraft(name: "Edited \(names[offset % names.count])", email: email(2000 + offset)), at: now())
        }
        for id in scimIDs[30..<35] + rosterIDs[10..<15] {
            try await store.deleteSCIMUser(id: id, ifMatch: nil, at: Date())
        }

        // The values written, read back as SCIM answers them.
        let all = try await store.scimUsers(SCIMListQuery(filter: nil, sort: nil, startIndex: 1, count: 1000)).records
        for record in all {
            values.texts.append(record.userName)
            values.texts.append(record.user.email)
            values.texts.append(record.user.name)
            if let object = record.document {
                if case .string(let external)? = object["externalId"] { values.texts.append(external) }
                if case .string(let shown)? = object["displayName"] { values.texts.append(shown) }
                if case .array(let emails)? = object["emails"] {
                    for case .object(let entry) in emails {
                        for key in ["value", "type", "display"] {
                            if case .string(let text)? = entry[key] { values.texts.append(text) }
                        }
                    }
                }
            }
            values.times.append(record.user.updatedAt)
            values.times.append(record.user.createdAt)
        }
        return values
    }

    /// Compares `count` random filters' pages and totals, indexed and scanned.
    private static func compare(dialect: any SCIMSQLDialect, values: Values, count: Int = 2500, run: Run) async throws {
        var random = SeededGenerator(seed: 7)
        var matched = 0
        for _ in 0..<count {
            let text = randomFilter(values, &random, depth: 0)
            let filter = try SCIMFilterParser.parse(text)
            let query = SCIMListQuery(filter: filter, sort: nil, startIndex: 1, count: 1000)
            let indexed = try SCIMListPlan(select: "users.id", columns: SCIMUserColumns(dialect: dialect), query: query)
            let scanned = try SCIMListPlan(select: "users.id", columns: SCIMUserColumns(dialect: dialect, indexed: false), query: query)
            #expect(indexed.pageSQL != scanned.pageSQL || !text.contains("emails"), "\(text)")
            let viaIndex = try await run(indexed)
            let viaScan = try await run(scanned)
            #expect(viaIndex.ids == viaScan.ids, "\(text)")
            #expect(viaIndex.total == viaScan.total, "\(text)")
            if viaScan.total > 0 { matched += 1 }
        }
        // Most filters find someone, so the comparison is not of empty answers.
        #expect(matched > count / 3)
    }

    private static func randomFilter(_ values: Values, _ random: inout SeededGenerator, depth: Int) -> String {
        if depth < 2 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return "(\(randomFilter(values, &random, depth: depth + 1)) and \(randomFilter(values, &random, depth: depth + 1)))"
            case 1: return "(\(randomFilter(values, &random, depth: depth + 1)) or \(randomFilter(values, &random, depth: depth + 1)))"
            case 2: return "not (\(randomFilter(values, &random, depth: depth + 1)))"
            default: break
            }
        }
        let stringOps = ["eq", "ne", "co", "sw", "ew", "gt", "ge", "lt", "le"]
        func needle() -> String {
            let whole = values.texts.randomElement(using: &random)!
            var text: String
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1: text = whole
            case 2: text = String(whole.prefix(Int.random(in: 1...4, using: &random)))
            case 3: text = String(whole.suffix(Int.random(in: 1...6, using: &random)))
            case 4:
                let characters = Array(whole)
                let start = Int.random(in: 0..<max(1, characters.count), using: &random)
                text = String(characters[start..<min(characters.count, start + Int.random(in: 1...5, using: &random))])
            default: text = ["ivan", "work", "HOME", "ext1", "çel", "zz", "a"].randomElement(using: &random)!
            }
            if Bool.random(using: &random) { text = text.uppercased() }
            return jsonString(text)
        }
        func time() -> String {
            let date = values.times.randomElement(using: &random)!
            return "\"\(ISO8601Timestamp.format(date))\""
        }
        let op = stringOps.randomElement(using: &random)!
        switch Int.random(in: 0..<16, using: &random) {
        case 0: return "emails.value \(op) \(needle())"
        case 1: return "emails[value \(op) \(needle())]"
        case 2: return "emails[type eq \(needle()) and value \(op) \(needle())]"
        case 3: return "emails[type eq \"work\" and value co \(needle())]"
        case 4: return "emails.type \(op) \(needle())"
        case 5: return "emails[primary eq \(Bool.random(using: &random))]"
        case 6: return ["emails pr", "emails.display pr", "emails.type pr", "emails[not (type pr)]", "emails[display pr or primary eq true]"]
            .randomElement(using: &random)!
        case 7: return "emails.display \(op) \(needle())"
        case 8: return "emails[not (value \(op) \(needle()))]"
        case 9: return "externalId \(op) \(needle())"
        case 10: return ["externalId pr", "not (externalId pr)", "displayName pr"].randomElement(using: &random)!
        case 11: return "displayName \(op) \(needle())"
        case 12: return "meta.lastModified \(["eq", "gt", "ge", "lt", "le", "ne"].randomElement(using: &random)!) \(time())"
        case 13: return "meta.created \(["eq", "gt", "ge", "lt", "le"].randomElement(using: &random)!) \(time())"
        case 14: return "userName \(op) \(needle())"
        default: return "emails[type \(op) \(needle())]"
        }
    }
}
