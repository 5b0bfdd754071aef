/// A parsed filter (RFC 7644 section 3.4.2.2). Never evaluated over loaded users: lists
/// translate it to SQL (`SCIMFilterSQL`); only a PATCH path's value filter is matched in
/// memory, against the entries of one resource's attribute (`SCIMValueFilter`).
indirect enum SCIMFilter: Sendable, Equatable {
    case and(SCIMFilter, SCIMFilter)
    case or(SCIMFilter, SCIMFilter)
    case not(SCIMFilter)
    case present(SCIMAttributePath)
    case compare(SCIMAttributePath, Operator, SCIMLiteral)
    /// `emails[type eq "work"]`: some entry of the multi-valued attribute matches the filter,
    /// whose paths name sub-attributes.
    case valuePath(SCIMAttributePath, SCIMFilter)

    enum Operator: String, Sendable, CaseIterable {
        case eq, ne, co, sw, ew, gt, ge, lt, le
    }
}

/// A comparison's right-hand side.
enum SCIMLiteral: Sendable, Equatable {
    case string(String)
    /// The number as written.
    case number(String)
    case bool(Bool)
    case null
}
