import Foundation
import GRDB

/// Opens (creating when missing) the SQLite file that holds the directory.
enum SQLiteDatabase {
    /// How much of the file reads map (SQLite caps it at its build's maximum, 2 GiB by default).
    static let mmapSize = 1 << 32

    static func open(path: String) throws -> DatabasePool {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // A write rule's transaction spans several accesses to the writer, taking turns so no
        // other write runs inside it (`SQLiteWriter`).
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            // DatabasePool runs in WAL mode. FULL makes each commit wait for the WAL fsync, so a
            // 201 means the row is on disk: neither a killed process nor a lost machine undoes it.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Reads map the file instead of copying each page through read(2) into a 2,000-page
            // cache: a trigram search at a million users looks up some 12,000 rows scattered
            // over the file, and a deep page steps over 250,000 index rows.
            try db.execute(sql: "PRAGMA mmap_size = \(Self.mmapSize)")
            addFunctions(to: db)
        }
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        try Schema.migrator.migrate(pool)
        return pool
    }

    /// The SQL functions the schema calls, registered on every connection that opens the file.
    static func addFunctions(to db: Database) {
        db.add(function: SQLFunctions.fold())
        // The users_short_count triggers (Schema v5) call it on every write.
        db.add(function: ShortGrams.sqlFunction())
    }
}
