@_spi(ExperimentalCustomExecutors) import _Concurrency
import RosterKit
#if canImport(Glibc)
import Glibc
#endif

/// The main actor's executor: its jobs wait in a list that `MainLoop` runs on the main thread
/// whenever its pipe says there are some. Jobs from any thread; run only by `MainLoop.run`.
final class MainLoopExecutor: MainExecutor, @unchecked Sendable {
    /// Readable while jobs wait: a pipe's end that `enqueue` writes a byte to when the list
    /// was empty, and that `runJobs` empties.
    let descriptor: Int32
    private let writeEnd: Int32
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    /// The batch `runJobs` is running, swapped with `jobs` under the lock: the two lists keep
    /// their storage, so a turn of the loop (every key's) allocates none.
    private var running: [UnownedJob] = []

    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe: \(String(cString: strerror(errno)))")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (descriptor, writeEnd) = (ends[0], ends[1])
        pthread_mutex_init(lock, nil)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        pthread_mutex_lock(lock)
        let wasEmpty = jobs.isEmpty
        jobs.append(UnownedJob(job))
        pthread_mutex_unlock(lock)
        if wasEmpty {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    /// Runs the jobs waiting on the calling (main) thread. Those they add find the list empty
    /// and write a byte, so they run at the loop's next turn, after the keys waiting.
    func runJobs() {
        var bytes = (UInt64(0), UInt64(0))
        while read(descriptor, &bytes, MemoryLayout.size(ofValue: bytes)) > 0 {}
        pthread_mutex_lock(lock)
        swap(&jobs, &running)
        pthread_mutex_unlock(lock)
        for job in running { job.runSynchronously(on: asUnownedSerialExecutor()) }
        running.removeAll(keepingCapacity: true)
    }

    /// `MainLoop.run` is the loop; the runtime calls `run` only for an `async main`, which
    /// `roster` does not have.
    func run() throws {
        MainLoop.serve()
    }

    func stop() {}
}

/// The executors `roster` runs on: its main loop for the main actor, `WorkerPool` for the rest
/// (no libdispatch worker, so no once-a-second monitor: docs/design.md, "Nothing runs while idle").
struct RosterExecutors: ExecutorFactory {
    static let main = MainLoopExecutor()
    static var mainExecutor: any MainExecutor { main }
    static var defaultExecutor: any TaskExecutor { WorkerPool.shared }

    /// Makes them the process's executors; before any task starts.
    static func install() {
        _createExecutors(factory: RosterExecutors.self)
    }
}
