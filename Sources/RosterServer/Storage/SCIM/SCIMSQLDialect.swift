/// What differs between SQLite's and PostgreSQL's SQL in a SCIM query: how a JSON document is
/// read, how text is folded, how arguments are written. Which attribute lives where
/// (`SCIMColumns`) and how a filter becomes a condition (`SCIMFilterSQL`, `SCIMListPlan`) are
/// shared by both stores. Every fragment is fixed text; values are bound (`SQLArgument`).
protocol SCIMSQLDialect: Sendable {
    /// The placeholder of the `number`th bound argument, counting from 1: `?` or `$n`.
    func placeholder(_ number: Int) -> String
    /// A table's SCIM document as the dialect's JSON, NULL for a row never written over SCIM.
    func document(of table: String) -> String
    /// The value at `path` (object member names) inside `json`, as SQL of `kind`; NULL when absent.
    func value(in json: String, at path: [String], kind: SCIMAttribute.Kind) -> String
    /// The JSON (an object or array) at `path` inside `json`.
    func json(in json: String, at path: [String]) -> String
    /// Whether a complex value (JSON) holds anything: not absent, null or `{}`.
    func isPresentComplex(_ json: String) -> String
    /// `FROM` text yielding one row per element of the JSON array `array`, as `e`: its JSON is
    /// `e.value`, its position `e.key`. Anything but an array yields no row.
    func entries(of array: String) -> String
    /// `ORDER BY` text for those entries: the primary one first, then in array order.
    var primaryEntryFirst: String { get }
    /// A JSON array of one entry, `{"value": <valueSQL>, "primary": true}`.
    func primaryEntryArray(value valueSQL: String) -> String
    /// `SortKey.of` in SQL, for values with no folded column.
    func fold(_ text: String) -> String
    /// What a condition is taken to be when it is NULL under `not`.
    var falseLiteral: String { get }
    /// Whether `needle` occurs in `text`.
    func contains(_ text: String, _ needle: String) -> String
    /// The first and last `length` characters of `text` (`length` is a placeholder).
    func prefix(_ text: String, length: String) -> String
    func suffix(_ text: String, length: String) -> String
    /// A user's folded userName (their email's when they have none), as SQL.
    var userNameKey: String { get }
    /// Whether a user is active, as SQL: Roster's status, or `active` in their document.
    var userActive: String { get }
    /// The trigram index over Roster's email keys (the Roster API's search), for `users AS e`.
    var rosterEmailTrigram: SQLTrigram { get }
    /// The trigram index over `user_emails.value_key`, for `user_emails AS e`.
    var userEmailsTrigram: SQLTrigram { get }
}

extension SCIMSQLDialect {
    var userNameKey: String { "coalesce(users.user_name_key, users.email_key)" }
    var userActive: String {
        "CASE WHEN users.scim IS NULL THEN users.status = 'active' ELSE \(value(in: document(of: "users"), at: ["active"], kind: .boolean)) END"
    }
}

/// A bound argument, written by each store in its driver's own type.
enum SQLArgument: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
}

/// Collects the arguments of one statement and writes their placeholders.
struct SQLArguments: Sendable {
    let dialect: any SCIMSQLDialect
    private(set) var values: [SQLArgument] = []

    init(dialect: any SCIMSQLDialect) {
        self.dialect = dialect
    }

    mutating func bind(_ value: SQLArgument) -> String {
        values.append(value)
        return dialect.placeholder(values.count)
    }
}
