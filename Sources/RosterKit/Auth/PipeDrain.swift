import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Collects what a child process writes to its pipes, on a thread of its own, until every
/// pipe reaches end of file or a short grace after the child exited, whichever comes first;
/// then closes them.
///
/// Why not `FileHandle.readToEnd()` in a task: a blocking read holds one of the cooperative
/// pool's threads (two on a two-core machine: two such reads stall every task in the process),
/// and end of file only comes once every copy of the pipe's write end is closed. A daemon the
/// command left running, or any process spawned meanwhile that inherited the pipe, keeps it
/// open for as long as it lives; the test suite once hung on exactly that.
final class PipeDrain: @unchecked Sendable {
    /// Bytes kept per pipe; more is read and dropped, so a chatty command cannot stall.
    static let byteLimit = 1 << 20

    private let descriptors: [Int32]
    private let grace: Duration
    private let lock = NSLock()
    private var exitedAt: ContinuousClock.Instant?

    init(_ descriptors: [Int32], grace: Duration = .milliseconds(300)) {
        self.descriptors = descriptors
        self.grace = grace
    }

    /// The child has exited: what is still to come must come within the grace.
    func childExited() {
        lock.withLock { exitedAt = exitedAt ?? .now }
    }

    /// Everything read from each pipe, in the order the handles were given.
    func collect() async -> [Data] {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in continuation.resume(returning: drain()) }
            thread.name = "roster-pipe-drain"
            thread.start()
        }
    }

    private func drain() -> [Data] {
        var collected = Array(repeating: Data(), count: descriptors.count)
        var open = Set(descriptors.indices)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !open.isEmpty, !graceIsOver() {
            var polled = open.sorted().map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            // A bounded wait, so the grace is noticed even when nothing arrives.
            guard poll(&polled, nfds_t(polled.count), 50) > 0 else { continue }
            for entry in polled where entry.revents != 0 {
                guard let index = descriptors.firstIndex(of: entry.fd) else { continue }
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let room = max(0, Self.byteLimit - collected[index].count)
                    collected[index].append(contentsOf: buffer.prefix(min(count, room)))
                } else if count == 0 || errno != EINTR {
                    open.remove(index)
                }
            }
        }
        descriptors.forEach { close($0) }
        return collected
    }

    private func graceIsOver() -> Bool {
        lock.withLock { exitedAt.map { ContinuousClock.now - $0 > grace } ?? false }
    }
}
