import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one thread that blocks on the terminal. It waits with `poll` on the terminal and on
/// the signal pipe, and wakes the main actor through an `AsyncStream`. It never calls ncurses:
/// after an `.input` wake-up it waits until the main actor has read every pending key (and
/// calls `acknowledge()`), so all ncurses calls stay on the main actor and the thread does
/// not spin while keys wait to be read.
final class InputThread: Sendable {
    enum Wake: Sendable, Equatable {
        case input
        case signal(Int32)
    }

    let wakes: AsyncStream<Wake>
    private let continuation: AsyncStream<Wake>.Continuation
    private let drained = DispatchSemaphore(value: 0)
    private let inputDescriptor: Int32
    private let signalDescriptor: Int32

    /// - Parameters:
    ///   - inputDescriptor: the terminal (standard input).
    ///   - signalDescriptor: the read end of the pipe the signal handlers write to; a byte 0
    ///     there stops the thread.
    init(inputDescriptor: Int32, signalDescriptor: Int32) {
        (wakes, continuation) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .unbounded)
        self.inputDescriptor = inputDescriptor
        self.signalDescriptor = signalDescriptor
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "roster-input"
        thread.start()
    }

    /// Called by the main actor once it has read every pending key.
    func acknowledge() {
        drained.signal()
    }

    private func run() {
        var descriptors = [
            pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if descriptors[1].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                let count = read(signalDescriptor, &bytes, bytes.count)
                if count <= 0 || bytes[..<count].contains(0) { break }
                for byte in bytes[..<count] { continuation.yield(.signal(Int32(byte))) }
            }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                continuation.yield(.input)
                drained.wait()
            } else if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The terminal went away (SSH dropped): treat it like SIGHUP.
                continuation.yield(.signal(SIGHUP))
                break
            }
        }
        continuation.finish()
    }
}
