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

/// A multi-valued attribute: the rows of its entries, each entry reached as `e`.
struct SQLMultiValued {
    /// `FROM` text that yields one row per entry.
    var from: String
    /// What ties an entry to the outer row, if `from` does not already.
    var correlation: String? = nil
    /// How the entries are ordered when one stands for them all (a sort): primary first.
    var order: String? = nil
    var subAttribute: (SCIMAttribute) -> SQLScalar?

    /// Entries stored as a JSON array (the document, or one the row synthesizes).
    static func json(array: String, dialect: any SCIMSQLDialect) -> SQLMultiValued {
        SQLMultiValued(from: dialect.entries(of: array), order: dialect.primaryEntryFirst) { sub in
            SQLScalar(sql: dialect.value(in: "e.value", at: [sub.name], kind: sub.kind), kind: sub.kind, caseExact: sub.caseExact)
        }
    }
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
    var resourceType: SCIMResourceType { .user }
    var table: String { "users" }

    static let userName = "coalesce(users.user_name, users.email)"

    func modelled(_ attribute: ResolvedAttribute) -> SQLTarget? {
        guard attribute.extensionURN == nil else { return nil }
        if let meta = meta(attribute) { return meta }
        let sub = attribute.subAttribute
        switch (attribute.attribute.name, sub?.name) {
        case ("id", nil):
            return .scalar(SQLScalar(sql: "users.id", kind: .string, caseExact: true, rangeIndexed: true))
        case ("userName", nil):
            return .scalar(SQLScalar(sql: Self.userName, kind: .string, caseExact: false, foldedSQL: dialect.userNameKey, rangeIndexed: true))
        case ("displayName", nil):
            let documented = dialect.value(in: documentColumn, at: ["displayName"], kind: .string)
            return .scalar(SQLScalar(
                sql: "CASE WHEN users.scim IS NULL THEN users.name ELSE \(documented) END",
                kind: .string, caseExact: false,
                foldedSQL: "CASE WHEN users.scim IS NULL THEN users.name_key ELSE \(dialect.fold(documented)) END"))
        case ("active", nil):
            return .scalar(SQLScalar(sql: dialect.userActive, kind: .boolean, caseExact: true))
        case ("emails", _):
            return .multiValued(modelledArray("emails", column: "users.email"))
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
