// The upstream bug scripts/tsan/suppressions.txt works around, reproduced: every access below is
// inside Synchronization.Mutex.withLock, and on Linux ThreadSanitizer still reports races, since
// Swift 6.3.1's Mutex hands a contended lock over in the uninstrumented standard library
// (FUTEX_LOCK_PI/FUTEX_UNLOCK_PI), where TSan sees no happens-before. To report to
// swiftlang/swift (no issue about it was found; this machine has no network to file one).
//   swiftc -sanitize=thread -O scripts/tsan/mutex-race-repro.swift -o /tmp/mutex-race && /tmp/mutex-race
// prints dozens of "Swift access race" and "data race" reports for this one counter.
import Synchronization
import Foundation

// Two threads, one Mutex-guarded counter: each access is inside withLock.
final class Box: Sendable {
    let counter = Mutex<[Int]>([])
}
let box = Box()
let threads = (0..<4).map { n in
    Thread {
        for i in 0..<20_000 { box.counter.withLock { $0.append(i &+ n); if $0.count > 64 { $0.removeAll(keepingCapacity: true) } } }
    }
}
threads.forEach { $0.start() }
Thread.sleep(forTimeInterval: 3)
print(box.counter.withLock { $0.count })
