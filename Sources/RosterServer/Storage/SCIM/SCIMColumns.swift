/// How one resource type's attributes are reached in SQL: the user and group tables' columns
/// where Roster models the attribute, and the stored SCIM document (read with the dialect's
/// JSON functions) for everything else. Every fragment is fixed text made from the schema's own
/// attribute names; values never appear in it (they are bound arguments).
protocol SCIMColumns: Sendable {
    var resourceType: SCIMResourceType { get }
    var dialect: any SCIMSQLDialect { get }
    /// The table, e.g. `users`.
    var table: String { get }
    /// The attribute's SQL, or nil to use the document.
    func modelled(_ attribute: ResolvedAttribute) -> SQLTarget?
}

/// Where an attribute's value is.
enum SQLTarget {
    case scalar(SQLScalar)
    /// A single-valued complex attribute: only `pr` applies to it as a whole.
    case complex(json: String)
    case multiValued(SQLMultiValued)
}

/// An expression with one value per row (NULL when absent).
struct SQLScalar {
    var sql: String
    var kind: SCIMAttribute.Kind
    var caseExact: Bool
    /// The folded value, where a column has it already (and an index may serve it); else the
    /// dialect's fold of `sql` is computed per row.
    var foldedSQL: String? = nil
    /// Whether `sw` should be a range over an index of `foldedSQL` (or `sql` when case-exact).
    var rangeIndexed = false
    /// Date-times stored as milliseconds since 1970 (the tables' time columns).
    var milliseconds = false
    /// A condition every row with a value meets, written beside each comparison so that a
    /// partial index over those rows alone (`WHERE scim IS NOT NULL`) serves it.
    var onlyWhere: String? = nil
    /// The trigram index over `foldedSQL`, for `co` and `ew`.
    var trigram: SQLTrigram? = nil

    func compared(caseExact exact: Bool, dialect: any SCIMSQLDialect) -> String {
        exact ? sql : (foldedSQL ?? dialect.fold(sql))
    }

    /// Whether the value is text in SQL (absent and empty text are both "not present").
    var isText: Bool {
        switch kind {
        case .string, .reference, .binary: true
        case .dateTime: !milliseconds
        case .boolean, .decimal, .integer, .complex: false
        }
    }
}

/// A trigram index over a folded column: it narrows a substring test to the rows it finds;
/// the test is still made on each of them.
struct SQLTrigram {
    /// SQL true for the rows the index finds for the bound argument `needle` (its placeholder).
    var candidates: (_ needle: String) -> String
    /// What is bound for a folded text of at least three characters: an FTS5 phrase, a LIKE pattern.
    var argument: (_ text: String) -> String
}

/// A multi-valued attribute: the rows of its entries, each entry reached as `e`.
struct SQLMultiValued {
    /// `FROM` text that yields one row per entry.
    var from: String
    /// What ties an entry to the outer row, if `from` does not already.
    var correlation: String? = nil
    /// How the entries are ordered when one stands for them all (a sort): primary first.
    var order: String? = nil
    var subAttribute: (SCIMAttribute) -> SQLScalar?
    /// Where the entries are also kept in indexed rows: a filter on them is then answered from
    /// those rows' indexes (`SCIMFilterSQL`), not by reading every row's entries.
    var indexed: SQLIndexedEntries? = nil

    /// Entries stored as a JSON array (the document, or one the row synthesizes).
    static func json(array: String, dialect: any SCIMSQLDialect) -> SQLMultiValued {
        SQLMultiValued(from: dialect.entries(of: array), order: dialect.primaryEntryFirst) { sub in
            SQLScalar(sql: dialect.value(in: "e.value", at: [sub.name], kind: sub.kind), kind: sub.kind, caseExact: sub.caseExact)
        }
    }
}

/// The entries of a multi-valued attribute as indexed rows, in one or more row sets (each
/// entry in exactly one): a match is `outerKey IN (SELECT key FROM … UNION ALL SELECT …)`.
struct SQLIndexedEntries {
    /// The outer row's key, e.g. `users.seq`.
    var outerKey: String
    var sources: [SQLEntryRows]
}

/// One set of entry rows, each entry reached as `e`.
struct SQLEntryRows {
    /// `FROM` text.
    var from: String
    /// The outer row's key in these rows.
    var key: String
    /// Which of the `from` rows are entries, if not all.
    var condition: String?
    var subAttribute: (SCIMAttribute) -> SQLScalar?
}

extension ResolvedAttribute {
    /// The object members that lead to the attribute in a document: the extension's URN,
    /// the name, the sub-attribute.
    func documentPath(includeSub: Bool = true) -> [String] {
        var path = extensionURN.map { [$0] } ?? []
        path.append(attribute.name)
        if includeSub, let sub = subAttribute { path.append(sub.name) }
        return path
    }
}

extension SCIMColumns {
    var documentColumn: String { dialect.document(of: table) }

    /// The attribute's SQL target: modelled columns first, then the document.
    func target(_ attribute: ResolvedAttribute) -> SQLTarget {
        if let modelled = modelled(attribute) { return modelled }
        let definition = attribute.attribute
        if definition.multiValued {
            return .multiValued(.json(array: dialect.json(in: documentColumn, at: attribute.documentPath(includeSub: false)), dialect: dialect))
        }
        if let sub = attribute.subAttribute {
            return .scalar(SQLScalar(
                sql: dialect.value(in: documentColumn, at: attribute.documentPath(), kind: sub.kind), kind: sub.kind, caseExact: sub.caseExact))
        }
        if definition.kind == .complex {
            return .complex(json: dialect.json(in: documentColumn, at: attribute.documentPath()))
        }
        return .scalar(SQLScalar(
            sql: dialect.value(in: documentColumn, at: attribute.documentPath(), kind: definition.kind),
            kind: definition.kind, caseExact: definition.caseExact))
    }

    /// `meta.created` and `meta.lastModified` from the time columns, `meta.resourceType` as a constant.
    func meta(_ attribute: ResolvedAttribute) -> SQLTarget? {
        guard attribute.extensionURN == nil, attribute.attribute.name == "meta", let sub = attribute.subAttribute else { return nil }
        switch sub.name {
        case "created": return .scalar(SQLScalar(sql: "\(table).created_at", kind: .dateTime, caseExact: true, milliseconds: true))
        case "lastModified": return .scalar(SQLScalar(sql: "\(table).updated_at", kind: .dateTime, caseExact: true, milliseconds: true))
        case "resourceType": return .scalar(SQLScalar(sql: "'\(resourceType.name)'", kind: .string, caseExact: true))
        default: return nil
        }
    }
}

/// Users: `users` columns for what Roster models. A user never written over SCIM has no
/// document (NULL); their displayName, emails, active and roles come from the columns, as
/// `SCIMUserResource` renders them.
struct SCIMUserColumns: SCIMColumns {
    let dialect: any SCIMSQLDialect
    /// Whether filters use the indexes of SQLite's v6 and PostgreSQL's migration 9 (emails,
    /// externalId, displayName); without, they read the documents (what a test compares with).
    var indexed = true
    var resourceType: SCIMResourceType { .user }
    var table: String { "users" }

    static let userName = "coalesce(users.user_name, users.email)"

    /// externalId as filters read it, and as its index holds it.
    static func externalID(_ dialect: any SCIMSQLDialect) -> String {
        dialect.value(in: dialect.document(of: "users"), at: ["externalId"], kind: .string)
    }

    /// The folded displayName as filters read it, and as its index holds it: Roster's name
    /// key, or the document's value folded.
    static func displayNameKey(_ dialect: any SCIMSQLDialect) -> String {
        let documented = dialect.value(in: dialect.document(of: "users"), at: ["displayName"], kind: .string)
        return "CASE WHEN users.scim IS NULL THEN users.name_key ELSE \(dialect.fold(documented)) END"
    }

    /// An expression above as an index's definition spells it: its columns unqualified.
    static func indexDefinition(_ expression: String) -> String {
        expression.replacingOccurrences(of: "users.", with: "")
    }

    /// A user's emails as indexed rows: Roster's one email from the users never written over
    /// SCIM (its key's unique index and the trigram index of the Roster API's search), and
    /// every entry of the others' documents from `user_emails` (its value index and its
    /// own trigram index), kept by triggers (SQLite's v6, PostgreSQL's migration 9).
    private var indexedEmails: SQLIndexedEntries {
        let rosterEmail = SQLEntryRows(from: "users AS e", key: "e.seq", condition: "\(dialect.document(of: "e")) IS NULL") { [dialect] sub in
            switch sub.name {
            case "value":
                SQLScalar(sql: "e.email", kind: sub.kind, caseExact: sub.caseExact, foldedSQL: "e.email_key", rangeIndexed: true,
                          trigram: dialect.rosterEmailTrigram)
            case "primary": SQLScalar(sql: "(1 = 1)", kind: sub.kind, caseExact: sub.caseExact)
            default: SQLScalar(sql: "CAST(NULL AS TEXT)", kind: sub.kind, caseExact: sub.caseExact)
            }
        }
        let documented = SQLEntryRows(from: "user_emails AS e", key: "e.user_seq", condition: nil) { [dialect] sub in
            switch sub.name {
            case "value":
                SQLScalar(sql: "e.value", kind: sub.kind, caseExact: sub.caseExact, foldedSQL: "e.value_key", rangeIndexed: true,
                          trigram: dialect.userEmailsTrigram)
            case "type": SQLScalar(sql: "e.type", kind: sub.kind, caseExact: sub.caseExact, foldedSQL: "e.type_key")
            case "display": SQLScalar(sql: "e.display", kind: sub.kind, caseExact: sub.caseExact)
            case "primary": SQLScalar(sql: "e.is_primary", kind: sub.kind, caseExact: sub.caseExact)
            default: nil
            }
        }
        return SQLIndexedEntries(outerKey: "users.seq", sources: [rosterEmail, documented])
    }

    func modelled(_ attribute: ResolvedAttribute) -> SQLTarget? {
        guard attribute.extensionURN == nil else { return nil }
        if let meta = meta(attribute) { return meta }
        let sub = attribute.subAttribute
        switch (attribute.attribute.name, sub?.name) {
        case ("id", nil):
            return .scalar(SQLScalar(sql: "users.id", kind: .string, caseExact: true, rangeIndexed: true))
        case ("userName", nil):
            return .scalar(SQLScalar(sql: Self.userName, kind: .string, caseExact: false, foldedSQL: dialect.userNameKey, rangeIndexed: true))
        case ("externalId", nil) where indexed:
            // Only documents have one: the index (`users_external_id`) holds those rows alone.
            return .scalar(SQLScalar(
                sql: Self.externalID(dialect), kind: attribute.attribute.kind, caseExact: attribute.attribute.caseExact,
                rangeIndexed: true, onlyWhere: "\(documentColumn) IS NOT NULL"))
        case ("displayName", nil):
            let documented = dialect.value(in: documentColumn, at: ["displayName"], kind: .string)
            return .scalar(SQLScalar(
                sql: "CASE WHEN users.scim IS NULL THEN users.name ELSE \(documented) END",
                kind: .string, caseExact: false,
                foldedSQL: Self.displayNameKey(dialect), rangeIndexed: indexed))
        case ("active", nil):
            return .scalar(SQLScalar(sql: dialect.userActive, kind: .boolean, caseExact: true))
        case ("emails", _):
            var emails = modelledArray("emails", column: "users.email")
            if indexed { emails.indexed = indexedEmails }
            return .multiValued(emails)
        case ("roles", _):
            return .multiValued(modelledArray("roles", column: "users.role"))
        case ("groups", _):
            return .multiValued(SQLMultiValued(
                from: "memberships AS m JOIN groups AS e ON e.seq = m.group_seq", correlation: "m.user_seq = users.seq") { sub in
                    switch sub.name {
                    case "value": SQLScalar(sql: "e.id", kind: .string, caseExact: true)
                    case "display": SQLScalar(sql: "e.name", kind: .string, caseExact: false, foldedSQL: "e.name_key")
                    case "type": SQLScalar(sql: "'direct'", kind: .string, caseExact: false)
                    default: nil
                    }
                })
        default:
            return nil
        }
    }

    /// A user never written over SCIM has one entry, from the column; others have their document's.
    private func modelledArray(_ name: String, column: String) -> SQLMultiValued {
        .json(array: """
            CASE WHEN users.scim IS NULL THEN \(dialect.primaryEntryArray(value: column)) \
            ELSE \(dialect.json(in: documentColumn, at: [name])) END
            """, dialect: dialect)
    }

    /// Emails sort by Roster's email, which is the primary (else the first) one.
    func sortExpression(_ attribute: ResolvedAttribute) -> String? {
        guard attribute.extensionURN == nil, attribute.attribute.name == "emails",
              attribute.subAttribute == nil || attribute.subAttribute?.name == "value" else { return nil }
        return "users.email_key"
    }
}

/// Groups: `groups` columns for the name and times, memberships for members.
struct SCIMGroupColumns: SCIMColumns {
    let dialect: any SCIMSQLDialect
    var resourceType: SCIMResourceType { .group }
    var table: String { "groups" }

    func modelled(_ attribute: ResolvedAttribute) -> SQLTarget? {
        guard attribute.extensionURN == nil else { return nil }
        if let meta = meta(attribute) { return meta }
        switch (attribute.attribute.name, attribute.subAttribute?.name) {
        case ("id", nil):
            return .scalar(SQLScalar(sql: "groups.id", kind: .string, caseExact: true, rangeIndexed: true))
        case ("displayName", nil):
            return .scalar(SQLScalar(sql: "groups.name", kind: .string, caseExact: false, foldedSQL: "groups.name_key", rangeIndexed: true))
        case ("members", _):
            return .multiValued(SQLMultiValued(
                from: "memberships AS m JOIN users AS e ON e.seq = m.user_seq", correlation: "m.group_seq = groups.seq") { sub in
                    switch sub.name {
                    case "value": SQLScalar(sql: "e.id", kind: .string, caseExact: true)
                    case "type": SQLScalar(sql: "'User'", kind: .string, caseExact: false)
                    default: nil
                    }
                })
        default:
            return nil
        }
    }

    func sortExpression(_ attribute: ResolvedAttribute) -> String? { nil }
}
