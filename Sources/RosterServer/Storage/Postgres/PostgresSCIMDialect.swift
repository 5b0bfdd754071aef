import PostgresNIO

/// SCIM's SQL on PostgreSQL: documents are read from the `scim_json` jsonb columns with `#>`
/// and `#>>`, typed by the attribute's kind (a value of another JSON type reads as NULL, never
/// as a failed cast); text compares in "C" order, as SQLite's BINARY does; folding is
/// `roster_fold` (migration 6).
struct PostgresSCIMDialect: SCIMSQLDialect {
    func placeholder(_ number: Int) -> String { "$\(number)" }

    func document(of table: String) -> String { "\(table).scim_json" }

    // Stored generated columns (migration 8) with an index over both: PostgreSQL 15 answers
    // a count from an index alone only when every column the query reads is in it, never
    // through an index on expressions. `userName sw "a" and active eq true` at a million users
    // visited some 25,000 table pages for its total (189 ms p99) through the expression index.
    var userNameKey: String { "users.scim_user_name_key" }
    var userActive: String { "users.scim_active" }

    /// What those columns are generated from: the other dialects' expressions, unqualified.
    static let generatedUserNameKey = "coalesce(user_name_key, email_key)"
    static var generatedUserActive: String {
        "CASE WHEN scim IS NULL THEN status = 'active' ELSE \(PostgresSCIMDialect().value(in: "scim_json", at: ["active"], kind: .boolean)) END"
    }

    func value(in json: String, at path: [String], kind: SCIMAttribute.Kind) -> String {
        let path = Self.path(path)
        switch kind {
        case .boolean:
            return "(CASE WHEN jsonb_typeof(\(json) #> \(path)) = 'boolean' THEN (\(json) #>> \(path))::boolean END)"
        case .integer, .decimal:
            return "(CASE WHEN jsonb_typeof(\(json) #> \(path)) = 'number' THEN (\(json) #>> \(path))::numeric END)"
        case .string, .reference, .binary, .dateTime, .complex:
            return "((\(json) #>> \(path)) COLLATE \"C\")"
        }
    }

    func json(in json: String, at path: [String]) -> String {
        "(\(json) #> \(Self.path(path)))"
    }

    func isPresentComplex(_ json: String) -> String {
        "(coalesce(\(json), '{}'::jsonb) NOT IN ('{}'::jsonb, 'null'::jsonb))"
    }

    func entries(of array: String) -> String {
        "jsonb_array_elements(CASE WHEN jsonb_typeof(\(array)) = 'array' THEN \(array) END) WITH ORDINALITY AS e (value, key)"
    }

    var primaryEntryFirst: String { "coalesce(e.value -> 'primary' = 'true'::jsonb, false) DESC, e.key" }

    func primaryEntryArray(value valueSQL: String) -> String {
        "jsonb_build_array(jsonb_build_object('value', \(valueSQL), 'primary', true))"
    }

    func fold(_ text: String) -> String { "(roster_fold(\(text)) COLLATE \"C\")" }

    var falseLiteral: String { "false" }

    func contains(_ text: String, _ needle: String) -> String { "(strpos(\(text), \(needle)) > 0)" }

    func prefix(_ text: String, length: String) -> String { "left(\(text), (\(length))::integer)" }

    func suffix(_ text: String, length: String) -> String { "right(\(text), (\(length))::integer)" }

    // `pg_trgm` GIN indexes with LIKE: `user_keys`' (the search's, over both keys in one text;
    // the email's own test then says which key matched) and migration 9's over `user_emails.value_key`.
    var rosterEmailTrigram: SQLTrigram {
        SQLTrigram(candidates: { "e.seq IN (SELECT k.seq FROM user_keys AS k WHERE (k.name_key || E'\\n' || k.email_key) LIKE \($0))" },
                   argument: Self.likePattern)
    }

    var userEmailsTrigram: SQLTrigram {
        SQLTrigram(candidates: { "(e.value_key LIKE \($0))" }, argument: Self.likePattern)
    }

    private static func likePattern(_ text: String) -> String { "%" + PostgresListQuery.escapedForLike(text) + "%" }

    /// A `text[]` literal of member names. They are the schema's own names (letters, digits,
    /// `$ref`, URNs), so double quotes around each are all the quoting they need.
    static func path(_ members: [String]) -> String {
        "'{" + members.map { "\"\($0)\"" }.joined(separator: ",") + "}'"
    }

    /// A statement of a plan, with its arguments bound in PostgreSQL's types.
    static func query(_ sql: String, _ arguments: [SQLArgument]) -> PostgresQuery {
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .text(let text): binds.append(PostgresSCIMDocument.replacingNUL(in: text))
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            case .boolean(let flag): binds.append(flag)
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}
