import NIOCore
import NIOPosix

/// The one thread SQLite's write transactions run on, from BEGIN to COMMIT (`SQLiteWriter`).
///
/// A transaction holds the store's write turn across its awaits. Were it to run on Swift's
/// cooperative pool, each await inside the turn would wait for a pool thread, and under load
/// those are busy with other requests' HTTP work while every writer queues behind the turn:
/// two connections' PUTs ran 25% slower than GRDB's own `write` did (1,220 against 1,630 a
/// second, `wrk -c2`). On a thread of its own the turn never waits for the pool, and the
/// statements and the commit's fsync may block it, as they block GRDB's writer queue.
final class SQLiteWriterThread: TaskExecutor {
    static let shared = SQLiteWriterThread()

    private let loop: any EventLoop

    private init() {
        // Never shut down: it lives as long as the process, as GRDB's writer queues do.
        loop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
