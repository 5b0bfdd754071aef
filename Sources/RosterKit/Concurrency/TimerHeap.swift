#if canImport(Glibc)
import Glibc
#endif

/// Timers by deadline (a binary heap), removable by id: a cancelled deadline leaves at once
/// rather than waking the process at its time. Our own because swift-collections' `Heap`
/// cannot take out an element in its middle, which every request deadline's cancel does.
struct TimerHeap<Work> {
    private struct Entry {
        var deadline: UInt64
        var id: UInt64
        var work: Work
    }

    private var entries: [Entry] = []

    var firstDeadline: UInt64? { entries.first?.deadline }
    var count: Int { entries.count }

    /// Adds `work` due at `deadline`; true if it is now the first due.
    mutating func insert(_ work: Work, at deadline: UInt64, id: UInt64) -> Bool {
        entries.append(Entry(deadline: deadline, id: id, work: work))
        siftUp(entries.count - 1)
        return entries[0].id == id
    }

    /// Takes out the timer `id`, if it is still here.
    mutating func remove(id: UInt64) -> Work? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        let work = entries[index].work
        let last = entries.removeLast()
        if index < entries.count {
            entries[index] = last
            siftDown(index)
            siftUp(index)
        }
        return work
    }

    /// Takes out every timer due at `now`, earliest first.
    mutating func popDue(at now: UInt64) -> [Work] {
        var due: [Work] = []
        while let first = entries.first, first.deadline <= now {
            due.append(first.work)
            let last = entries.removeLast()
            if !entries.isEmpty {
                entries[0] = last
                siftDown(0)
            }
        }
        return due
    }

    private func before(_ a: Int, _ b: Int) -> Bool {
        (entries[a].deadline, entries[a].id) < (entries[b].deadline, entries[b].id)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(child, parent) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var first = parent
            let left = 2 * parent + 1
            if left < entries.count && before(left, first) { first = left }
            if left + 1 < entries.count && before(left + 1, first) { first = left + 1 }
            guard first != parent else { return }
            entries.swapAt(parent, first)
            parent = first
        }
    }
}

/// CLOCK_MONOTONIC in nanoseconds, the clock the pool's conditions wait on.
enum MonotonicTime {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `delay` in nanoseconds, 0 for a negative one, a century at most.
    static func nanoseconds(_ delay: Duration) -> UInt64 {
        guard delay > .zero else { return 0 }
        return UInt64(min(delay, .seconds(100 * 365 * 86_400)).nanoseconds)
    }

    static func deadline(_ nanoseconds: UInt64) -> timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
