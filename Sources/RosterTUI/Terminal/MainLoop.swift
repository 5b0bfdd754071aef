import Dispatch
#if canImport(Glibc)
import Glibc
#endif

// libdispatch's hooks for a run loop that serves the main queue itself (CoreFoundation's run
// loop uses them on Linux): a descriptor that becomes readable when the main queue has work,
// and the call that runs that work on the calling thread.
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func mainQueueDescriptor() -> Int32
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func runMainQueue(_ message: UnsafeMutableRawPointer?)

/// The main thread's event loop: one `poll` on the main actor's jobs (`MainLoopExecutor`), on
/// libdispatch's main queue (for a library that uses it) and on the descriptors the terminal
/// watches, so a key is read, handled and drawn on the thread that waited for it.
///
/// Without it, `dispatch_main` hands the main queue (the main actor) to a libdispatch worker,
/// and a key went from an input thread to that worker: two threads woken per key, and a third
/// wake-up to let the input thread poll again (docs/design.md, "What keeps a key cheap").
public enum MainLoop {
    /// A descriptor the loop waits on, and what to do when it is ready (on the main actor).
    struct Watch {
        var descriptor: Int32
        var ready: @MainActor (_ events: Int16) -> Void
    }

    /// What the loop waits on besides the main queue. Touched only on the main thread.
    nonisolated(unsafe) private static var watches: [Watch] = []
    nonisolated(unsafe) private(set) static var isRunning = false

    /// Makes Roster's executors the process's (`RosterExecutors`), runs `body` on the main
    /// actor and serves the main thread until it ends, then exits the process with the code it
    /// returned. Call it from the program's synchronous `main`, before any task starts.
    public static func run(_ body: @escaping @MainActor @Sendable () async -> Int32) -> Never {
        RosterExecutors.install()
        Task { @MainActor in exit(await body()) }
        serve()
    }

    /// The loop itself, on the main thread, for good.
    static func serve() -> Never {
        isRunning = true
        let jobs = RosterExecutors.main
        let queue = mainQueueDescriptor()
        var descriptors: [pollfd] = []
        while true {
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: jobs.descriptor, events: Int16(POLLIN), revents: 0))
            descriptors.append(pollfd(fd: queue, events: Int16(POLLIN), revents: 0))
            for watch in watches { descriptors.append(pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0)) }
            if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
                if errno == EINTR { continue }
                fatalError("poll: \(String(cString: strerror(errno)))")
            }
            if descriptors[0].revents != 0 { jobs.runJobs() }
            if descriptors[1].revents != 0 {
                // The descriptor is an eventfd that the queue only writes to: reset it before
                // running the queue, so work added meanwhile wakes the next poll.
                var count: UInt64 = 0
                _ = read(queue, &count, MemoryLayout<UInt64>.size)
                runMainQueue(nil)
            }
            for polled in descriptors.dropFirst(2) where polled.revents != 0 {
                // A handler may have unwatched this descriptor (or all) meanwhile.
                guard let watch = watches.first(where: { $0.descriptor == polled.fd }) else { continue }
                MainActor.assumeIsolated { watch.ready(polled.revents) }
            }
        }
    }

    /// Waits on `descriptor` too, and calls `ready` with poll's events each time it is
    /// readable (or hung up) until `unwatch`. The loop must be running.
    @MainActor
    static func watch(_ descriptor: Int32, ready: @escaping @MainActor (_ events: Int16) -> Void) {
        precondition(isRunning, "MainLoop.run must serve the main thread before a descriptor is watched")
        watches.removeAll { $0.descriptor == descriptor }
        watches.append(Watch(descriptor: descriptor, ready: ready))
    }

    @MainActor
    static func unwatch(_ descriptor: Int32) {
        watches.removeAll { $0.descriptor == descriptor }
    }
}
