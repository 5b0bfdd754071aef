import GRDB
import NIOConcurrencyHelpers

/// The database's write generation, as SQLite itself counts it: it moves after any commit to
/// the file by any connection, in this process or another (a second roster-server, a second
/// `roster` window, the sqlite3 shell).
///
/// Why `PRAGMA data_version` rather than a generation row bumped in every write transaction:
/// it costs writes nothing (a row would add an UPDATE to every write and a trigger per row to
/// a million-user seed), and it sees writers that do not go through `SQLiteStore` at all.
/// Its value is per connection (it counts the commits of *other* connections that this one
/// has noticed), so one connection, kept open for the store's life, answers every call: its
/// values only ever grow. Each call is its own read transaction, which reads the WAL index
/// header from shared memory, so a commit that returned before the call began is always seen.
final class DatabaseGeneration: Sendable {
    private let path: String
    private let configuration: Configuration
    /// Opened by the first call (so making a store does not open a file yet).
    private let connection = NIOLockedValueBox<DatabaseQueue?>(nil)

    /// - Parameter configuration: the writer's; the connection opens the file read-only with it.
    init(path: String, configuration: Configuration) {
        self.path = path
        self.configuration = configuration.readOnly(label: "roster.generation")
    }

    /// The current generation. Never smaller than an earlier answer of this instance.
    /// One PRAGMA on a cached statement: no table is read, only the WAL index header.
    func current() throws -> UInt64 {
        try connection.withLockedValue { connection in
            let queue = try connection ?? DatabaseQueue(path: path, configuration: configuration)
            connection = queue
            return try queue.inDatabase { db in
                UInt64(bitPattern: try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0)
            }
        }
    }
}

extension Configuration {
    /// The writer's configuration for a read-only connection to the same file.
    func readOnly(label: String) -> Configuration {
        var configuration = self
        configuration.readonly = true
        configuration.label = label
        return configuration
    }
}
