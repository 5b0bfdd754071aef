@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import Foundation

/// Threads of Roster's own for Swift's tasks and timers, which wake only when given work.
///
/// libdispatch's worker pool (Swift's default executor on Linux) starts a timer at its first
/// worker that wakes the process once a second for as long as it lives: an idle `roster` was
/// never idle (docs/design.md, "Nothing runs while idle"). The app makes this pool the default
/// executor (`RosterExecutors`); `OneShotTimer` and the journal's delayed commit use its timers
/// everywhere. Threads start as work needs them, up to `maximumThreads`, and then stay, blocked
/// on a condition; a job that blocks its thread (a journal write) leaves the others to the rest.
///
/// `package`, not public: a public type cannot conform to `SchedulingExecutor`, an SPI of the
/// standard library in Swift 6.3 (as are the executor factory's types, `RosterExecutors`).
package final class WorkerPool: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    package static let shared = WorkerPool(maximumThreads: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    /// A timer's handle, to cancel it.
    package struct TimerID: Hashable, Sendable { let value: UInt64 }

    enum Work {
        case job(UnownedJob)
        case call(@Sendable () -> Void)
    }

    private let maximumThreads: Int
    // Everything below is guarded by `lock`; `workReady` and `timersChanged` wait on it.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let workReady = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let timersChanged = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [Work] = []
    private var head = 0
    private var threads = 0
    private var idleThreads = 0
    private var timers = TimerHeap<Work>()
    private var nextTimer: UInt64 = 0
    private var timekeeperStarted = false

    package init(maximumThreads: Int) {
        self.maximumThreads = max(1, maximumThreads)
        pthread_mutex_init(lock, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(workReady, &attributes)
        pthread_cond_init(timersChanged, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    // The shared pool lives as long as the process; a pool of a test ends with its threads
    // still parked, which is why nothing here is freed.

    package func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Runs `work` on one of the pool's threads.
    package func run(_ work: @escaping @Sendable () -> Void) {
        submit(.call(work))
    }

    package func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        // The runtime schedules here only the sleeps of ContinuousClock and SuspendingClock (a
        // clock of its own sleeps its own way), both measured in Duration.
        guard let delay = clock.now.duration(to: instant) as? Duration else {
            preconditionFailure("WorkerPool schedules on clocks measured in Duration, not \(C.self)")
        }
        _ = schedule(.job(UnownedJob(job)), after: delay)
    }

    package func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueue(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
    }

    /// Calls `work` on one of the pool's threads `delay` from now, unless cancelled first.
    package func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> TimerID {
        schedule(.call(work), after: delay)
    }

    /// Takes a timer out before it fires: true if it had not fired (nor been cancelled).
    @discardableResult
    package func cancel(_ timer: TimerID) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return timers.remove(id: timer.value) != nil
    }

    private func schedule(_ work: Work, after delay: Duration) -> TimerID {
        let deadline = MonotonicTime.now() &+ MonotonicTime.nanoseconds(delay)
        pthread_mutex_lock(lock)
        nextTimer += 1
        let id = nextTimer
        let becameFirst = timers.insert(work, at: deadline, id: id)
        if !timekeeperStarted {
            timekeeperStarted = true
            startThread { $0.keepTime() }
        } else if becameFirst {
            pthread_cond_signal(timersChanged)
        }
        pthread_mutex_unlock(lock)
        return TimerID(value: id)
    }

    private func submit(_ work: Work) {
        pthread_mutex_lock(lock)
        queue.append(work)
        if idleThreads > 0 { pthread_cond_signal(workReady) }
        // More waiting than idle threads to take it (a woken thread may not have taken its own yet).
        if queue.count - head > idleThreads && threads < maximumThreads {
            threads += 1
            startThread { $0.work() }
        }
        pthread_mutex_unlock(lock)
    }

    /// A worker: takes work in order, and waits for more when there is none.
    private func work() {
        pthread_mutex_lock(lock)
        while true {
            while head == queue.count {
                idleThreads += 1
                pthread_cond_wait(workReady, lock)
                idleThreads -= 1
            }
            let next = queue[head]
            head += 1
            if head == queue.count { queue.removeAll(keepingCapacity: true); head = 0 }
            pthread_mutex_unlock(lock)
            switch next {
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .call(let call): call()
            }
            pthread_mutex_lock(lock)
        }
    }

    /// The timekeeper: sleeps until the first timer is due (or forever while there is none),
    /// then hands what is due to the workers.
    private func keepTime() {
        pthread_mutex_lock(lock)
        while true {
            guard let deadline = timers.firstDeadline else {
                pthread_cond_wait(timersChanged, lock)
                continue
            }
            if deadline > MonotonicTime.now() {
                var until = MonotonicTime.deadline(deadline)
                pthread_cond_timedwait(timersChanged, lock, &until)
                continue
            }
            let due = timers.popDue(at: MonotonicTime.now())
            pthread_mutex_unlock(lock)
            for work in due { submit(work) }
            pthread_mutex_lock(lock)
        }
    }

    private func startThread(_ body: @escaping @Sendable (WorkerPool) -> Void) {
        let context = Unmanaged.passRetained(ThreadStart(pool: self, body: body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let start = Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue()
            start.body(start.pool)
            return nil
        }, context)
        guard started == 0 else { fatalError("WorkerPool could not start a thread: \(String(cString: strerror(started)))") }
        pthread_detach(thread)
    }

    private final class ThreadStart: @unchecked Sendable {
        let pool: WorkerPool
        let body: @Sendable (WorkerPool) -> Void
        init(pool: WorkerPool, body: @escaping @Sendable (WorkerPool) -> Void) {
            self.pool = pool
            self.body = body
        }
    }
}
