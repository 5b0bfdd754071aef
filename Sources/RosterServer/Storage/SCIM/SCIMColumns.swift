/// How one resource type's attributes are reached in SQL: the user and group tables' columns
/// where Roster models the attribute, and the stored SCIM document (`scim`, read with SQLite's
/// JSON functions) for everything else. Every fragment is fixed text made from the schema's own
/// attribute names; values never appear in it (they are bound arguments).
protocol SCIMColumns: Sendable {
    var resourceType: SCIMResourceType { get }
    /// The document column, e.g. `users.scim`.
    var documentColumn: String { get }
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
    /// The folded value, where a column has it already (and an index may serve it); else
    /// `roster_fold(sql)` is computed per row.
    var foldedSQL: String? = nil
    /// Whether `sw` should be a range over an index of `foldedSQL` (or `sql` when case-exact).
    var rangeIndexed = false
    /// Date-times stored as milliseconds since 1970 (the tables' time columns).
    var milliseconds = false

    func compared(caseExact exact: Bool) -> String {
        exact ? sql : (foldedSQL ?? "roster_fold(\(sql))")
    }
}

/// A multi-valued attribute: the rows of its entries, each entry reached as `e`.
struct SQLMultiValued {
    /// `FROM` text that yields one row per entry.
    var from: String
    /// What ties an entry to the outer row, if `from` does not already.
    var correlation: String? = nil
    var subAttribute: (SCIMAttribute) -> SQLScalar?

    /// Entries stored as a JSON array (the document, or one the row synthesizes).
    static func json(array: String) -> SQLMultiValued {
        SQLMultiValued(from: "json_each(\(array)) AS e") { sub in
            SQLScalar(sql: "json_extract(e.value, '$.\(JSONPath.member(sub.name))')", kind: sub.kind, caseExact: sub.caseExact)
        }
    }
}

enum JSONPath {
    /// A JSON path member: plain names as they are, anything else (`$ref`, a URN) quoted.
    static func member(_ name: String) -> String {
        name.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }) ? name : "\"\(name)\""
    }

    /// `$.name`, `$.name.sub`, `$."urn".name.sub`.
    static func of(_ attribute: ResolvedAttribute, includeSub: Bool = true) -> String {
        var path = "$"
        if let urn = attribute.extensionURN { path += ".\"\(urn)\"" }
        path += "." + member(attribute.attribute.name)
        if includeSub, let sub = attribute.subAttribute { path += "." + member(sub.name) }
        return path
    }
}

extension SCIMColumns {
    /// The attribute's SQL target: modelled columns first, then the document.
    func target(_ attribute: ResolvedAttribute) -> SQLTarget {
        if let modelled = modelled(attribute) { return modelled }
        let definition = attribute.attribute
        if definition.multiValued {
            return .multiValued(.json(array: "json_extract(\(documentColumn), '\(JSONPath.of(attribute, includeSub: false))')"))
        }
        if let sub = attribute.subAttribute {
            return .scalar(SQLScalar(sql: "json_extract(\(documentColumn), '\(JSONPath.of(attribute))')", kind: sub.kind, caseExact: sub.caseExact))
        }
        if definition.kind == .complex {
            return .complex(json: "json_extract(\(documentColumn), '\(JSONPath.of(attribute))')")
        }
        return .scalar(SQLScalar(sql: "json_extract(\(documentColumn), '\(JSONPath.of(attribute))')", kind: definition.kind, caseExact: definition.caseExact))
    }

    /// `meta.created` and `meta.lastModified` from the time columns, `meta.resourceType` as a constant.
    func meta(_ attribute: ResolvedAttribute, table: String) -> SQLTarget? {
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
    var resourceType: SCIMResourceType { .user }
    var documentColumn: String { "users.scim" }

    static let userName = "coalesce(users.user_name, users.email)"
    static let userNameKey = "coalesce(users.user_name_key, users.email_key)"

    func modelled(_ attribute: ResolvedAttribute) -> SQLTarget? {
        guard attribute.extensionURN == nil else { return nil }
        if let meta = meta(attribute, table: "users") { return meta }
        let sub = attribute.subAttribute
        switch (attribute.attribute.name, sub?.name) {
        case ("id", nil):
            return .scalar(SQLScalar(sql: "users.id", kind: .string, caseExact: true, rangeIndexed: true))
        case ("userName", nil):
            return .scalar(SQLScalar(sql: Self.userName, kind: .string, caseExact: false, foldedSQL: Self.userNameKey, rangeIndexed: true))
        case ("displayName", nil):
            return .scalar(SQLScalar(
                sql: "CASE WHEN users.scim IS NULL THEN users.name ELSE json_extract(users.scim, '$.displayName') END",
                kind: .string, caseExact: false,
                foldedSQL: "CASE WHEN users.scim IS NULL THEN users.name_key ELSE roster_fold(json_extract(users.scim, '$.displayName')) END"))
        case ("active", nil):
            return .scalar(SQLScalar(
                sql: "CASE WHEN users.scim IS NULL THEN users.status = 'active' ELSE json_extract(users.scim, '$.active') END",
                kind: .boolean, caseExact: true))
        case ("emails", _):
            return .multiValued(.json(array: """
                CASE WHEN users.scim IS NULL THEN json_array(json_object('value', users.email, 'primary', json('true'))) \
                ELSE json_extract(users.scim, '$.emails') END
                """))
        case ("roles", _):
            return .multiValued(.json(array: """
                CASE WHEN users.scim IS NULL THEN json_array(json_object('value', users.role, 'primary', json('true'))) \
                ELSE json_extract(users.scim, '$.roles') END
                """))
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

    /// Emails sort by Roster's email, which is the primary (else the first) one.
    func sortExpression(_ attribute: ResolvedAttribute) -> String? {
        guard attribute.extensionURN == nil, attribute.attribute.name == "emails",
              attribute.subAttribute == nil || attribute.subAttribute?.name == "value" else { return nil }
        return "users.email_key"
    }
}

/// Groups: `groups` columns for the name and times, memberships for members.
struct SCIMGroupColumns: SCIMColumns {
    var resourceType: SCIMResourceType { .group }
    var documentColumn: String { "groups.scim" }

    func modelled(_ attribute: ResolvedAttribute) -> SQLTarget? {
        guard attribute.extensionURN == nil else { return nil }
        if let meta = meta(attribute, table: "groups") { return meta }
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
