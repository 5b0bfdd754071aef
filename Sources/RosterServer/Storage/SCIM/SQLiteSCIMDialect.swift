import GRDB

/// SCIM's SQL on SQLite: documents are JSON text read with `json_extract` and `json_each`,
/// folding is `roster_fold` (`SQLFunctions`), booleans are 1 and 0.
struct SQLiteSCIMDialect: SCIMSQLDialect {
    func placeholder(_ number: Int) -> String { "?" }

    func document(of table: String) -> String { "\(table).scim" }

    func value(in json: String, at path: [String], kind: SCIMAttribute.Kind) -> String {
        self.json(in: json, at: path)
    }

    func json(in json: String, at path: [String]) -> String {
        "json_extract(\(json), '\(Self.path(path))')"
    }

    func isPresentComplex(_ json: String) -> String {
        "(coalesce(\(json), '{}') NOT IN ('{}', 'null'))"
    }

    func entries(of array: String) -> String { "json_each(\(array)) AS e" }

    var primaryEntryFirst: String { "coalesce(json_extract(e.value, '$.primary'), 0) DESC, e.key" }

    func primaryEntryArray(value valueSQL: String) -> String {
        "json_array(json_object('value', \(valueSQL), 'primary', json('true')))"
    }

    func fold(_ text: String) -> String { "roster_fold(\(text))" }

    var falseLiteral: String { "0" }

    func contains(_ text: String, _ needle: String) -> String { "(instr(\(text), \(needle)) > 0)" }

    func prefix(_ text: String, length: String) -> String { "substr(\(text), 1, \(length))" }

    func suffix(_ text: String, length: String) -> String { "substr(\(text), -(\(length)))" }

    // FTS5 trigram tables: the search's `users_search` (its email column), and v6's `user_emails_search`.
    var rosterEmailTrigram: SQLTrigram {
        SQLTrigram(candidates: { "e.seq IN (SELECT rowid FROM users_search WHERE users_search MATCH \($0))" },
                   argument: { "email_key : " + ListPlan.phrase($0) })
    }

    var userEmailsTrigram: SQLTrigram {
        SQLTrigram(candidates: { "e.seq IN (SELECT rowid FROM user_emails_search WHERE user_emails_search MATCH \($0))" },
                   argument: { ListPlan.phrase($0) })
    }

    /// `$.name.sub`, with anything but plain names (`$ref`, a URN) quoted: `$."urn".name`.
    static func path(_ members: [String]) -> String {
        "$" + members.map { "." + member($0) }.joined()
    }

    private static func member(_ name: String) -> String {
        name.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }) ? name : "\"\(name)\""
    }

    /// The arguments as GRDB binds them.
    static func statementArguments(_ values: [SQLArgument]) -> StatementArguments {
        StatementArguments(values.map { value -> (any DatabaseValueConvertible)? in
            switch value {
            case .text(let text): text
            case .integer(let number): number
            case .real(let number): number
            case .boolean(let flag): flag ? 1 : 0
            }
        })
    }
}
