import GRDB

/// SQL functions the store registers on every connection.
enum SQLFunctions {
    /// `roster_fold(x)`: `SortKey.of(x)` for text, anything else unchanged. SCIM compares most
    /// strings ignoring case; values kept in a JSON document have no folded column, so a
    /// filter on them folds per row, with the same folding as the indexed keys.
    static func fold() -> DatabaseFunction {
        DatabaseFunction("roster_fold", argumentCount: 1, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
            return SortKey.of(text)
        }
    }
}
