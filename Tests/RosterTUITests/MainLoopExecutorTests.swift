import Foundation
@testable import RosterTUI
import Testing

/// `MainLoopExecutor`, the main actor's executor in `roster`: jobs enqueued from any thread
/// make its descriptor readable and run, in order, on the thread that serves it.
@Suite("Main loop executor")
struct MainLoopExecutorTests {
    actor Recorder {
        let executor: MainLoopExecutor
        var values: [Int] = []
        var threads: Set<pthread_t> = []
        init(executor: MainLoopExecutor) { self.executor = executor }
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        func record(_ value: Int) {
            values.append(value)
            threads.insert(pthread_self())
        }
    }

    @Test func jobsFromOtherThreadsRunInOrderOnTheServingThread() async throws {
        let executor = MainLoopExecutor()
        let recorder = Recorder(executor: executor)
        let servingThread = ThreadID()
        let serving = Thread {
            servingThread.set(pthread_self())
            var descriptor = pollfd(fd: executor.descriptor, events: Int16(POLLIN), revents: 0)
            while !Thread.current.isCancelled {
                if poll(&descriptor, 1, 50) > 0 { executor.runJobs() }
            }
        }
        serving.start()
        defer { serving.cancel() }
        for value in 1...100 { await recorder.record(value) }
        #expect(await recorder.values == Array(1...100))
        let servingID = try #require(servingThread.get())
        #expect(await recorder.threads == [servingID])
    }
}

/// The serving thread's id, written by it before it serves.
private final class ThreadID: @unchecked Sendable {
    private let lock = NSLock()
    private var value: pthread_t?
    func set(_ id: pthread_t) { lock.withLock { value = id } }
    func get() -> pthread_t? { lock.withLock { value } }
}
