/// The SQLite store is the Roster API's directory; every operation is `SQLiteStore`'s own (its
/// `generation()` follows SQLite's `data_version`, so other processes' writes count too).
extension SQLiteStore: DirectoryStore {}
