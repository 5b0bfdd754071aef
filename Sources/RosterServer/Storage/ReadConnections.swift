import GRDB
import Synchronization

/// Read-only connections to the store's database file, each used by one read at a time, on
/// the calling thread.
///
/// `DatabasePool` hands out its readers through a dispatch barrier and a lookup that builds a
/// key path on every call: 4% of an uncached first page's time under wrk -c8 (perf), more than
/// both of the page's statements together. Here a read pops an idle connection from a locked
/// stack, or opens one. Readers are only ever held by synchronous reads, so there are never
/// more than the threads running them; a few are kept idle, any others close.
final class ReadConnections: Sendable {
    static let maximumIdle = 4

    private let path: String
    private let configuration: Configuration
    private let idle = Mutex<[DatabaseQueue]>([])

    /// - Parameter configuration: the writer's; readers open the same file read-only with it.
    init(path: String, configuration: Configuration) {
        var configuration = configuration
        configuration.readonly = true
        configuration.label = "roster.reader"
        self.path = path
        self.configuration = configuration
    }

    /// Runs `body` on one connection, on this thread, with no transaction of its own.
    func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        defer {
            idle.withLock { idle in
                if idle.count < Self.maximumIdle { idle.append(connection) }
            }
        }
        return try connection.inDatabase(body)
    }
}
