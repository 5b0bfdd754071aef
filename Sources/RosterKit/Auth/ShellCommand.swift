import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command started under `/bin/sh -c`, its standard output and error on pipes, its standard
/// input `/dev/null`.
///
/// Spawned directly rather than through Foundation's `Process`, for two measured reasons:
/// `Process` on Linux reports an exit only once every process holding its private socket has
/// gone (`sh -c 'echo t; sleep 5 &'` "ended" after 5 s), so a helper that leaves an agent
/// running looked like a command that never ended; and its pipes are not close-on-exec, so a
/// process spawned meanwhile elsewhere inherited them and held them open. Here the pipes are
/// close-on-exec, the exit is `waitpid` on the shell itself, and the child starts with no
/// signals blocked (the TUI blocks some for its signal thread).
struct ShellCommand: Sendable {
    let pid: pid_t
    /// The read ends of the child's standard output and standard error.
    let outputs: [Int32]

    static func start(_ command: String) throws(APIError) -> ShellCommand {
        var stdout: [Int32] = [-1, -1]
        var stderr: [Int32] = [-1, -1]
        guard pipe(&stdout) == 0 else { throw failure("pipe") }
        guard pipe(&stderr) == 0 else {
            stdout.forEach { close($0) }
            throw failure("pipe")
        }
        // Close-on-exec (pipe2 is not in Swift's Glibc): no other child inherits them.
        for descriptor in stdout + stderr { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        defer { close(stdout[1]); close(stderr[1]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
        guard result == 0 else {
            [stdout[0], stderr[0]].forEach { close($0) }
            throw failure("spawn", code: result)
        }
        return ShellCommand(pid: pid, outputs: [stdout[0], stderr[0]])
    }

    /// The shell's exit status (128 + the signal when a signal ended it), once it has exited.
    /// Waits on a thread of its own: `waitpid` blocks, and the cooperative pool is small.
    func exitStatus() async -> Int32 {
        let pid = self.pid
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                let signal = status & 0x7f
                continuation.resume(returning: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
            }
            thread.name = "roster-command-wait"
            thread.start()
        }
    }

    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    private static func failure(_ step: String, code: Int32 = errno) -> APIError {
        .tokenUnavailable("tokenCommand could not be started: \(step) failed (\(String(cString: strerror(code)))).")
    }
}
