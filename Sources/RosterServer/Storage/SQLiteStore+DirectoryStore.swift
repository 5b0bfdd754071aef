/// The SQLite store is the Roster API's directory: reads of its own, writes by `RowStore`'s
/// rules over its rows (its `generation()` follows SQLite's `data_version`, so other
/// processes' writes count too).
extension SQLiteStore: DirectoryStore, RowStore {}
