import GRDB
import NIOConcurrencyHelpers

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

    /// One connection and the deadline its statements check.
    final class Connection: Sendable {
        let queue: DatabaseQueue
        let deadline = QueryDeadline()

        init(path: String, configuration: Configuration) throws {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            queue.inDatabase { deadline.install(on: $0) }
        }

        deinit {
            // Closed here, before `deadline` goes: the progress handler points at it.
            try? queue.close()
        }
    }

    private let path: String
    private let configuration: Configuration
    private let idle = NIOLockedValueBox<[Connection]>([])

    /// - Parameter configuration: the writer's; readers open the same file read-only with it.
    init(path: String, configuration: Configuration) {
        self.path = path
        self.configuration = configuration.readOnly(label: "roster.reader")
    }

    /// Runs `body` on one connection, on this thread, with no transaction of its own. The
    /// connection's deadline is clear when `body` starts and is cleared again after it.
    func withConnection<T>(_ body: (Database, QueryDeadline) throws -> T) throws -> T {
        let connection = try idle.withLockedValue { $0.popLast() } ?? Connection(path: path, configuration: configuration)
        defer {
            connection.deadline.clear()
            idle.withLockedValue { idle in
                if idle.count < Self.maximumIdle { idle.append(connection) }
            }
        }
        return try connection.queue.inDatabase { db in try body(db, connection.deadline) }
    }
}
