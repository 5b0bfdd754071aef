import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a child process has ended, asked of the kernel as well as of Foundation. Foundation
/// on Linux hears of a child's exit through a socket the child holds; a process another test
/// spawns at that moment can inherit it, and then Foundation never hears
/// (swift-corelibs-foundation#4795): `isRunning` stays true, `waitUntilExit` never returns and
/// `terminationReason` traps, ending every test in the process.
public enum ChildExit {
    /// How `pid` ended if it has, nil while it runs; asked without reaping it (`WNOWAIT`), so
    /// Foundation still can.
    public static func peek(_ pid: Int32) -> (reason: Process.TerminationReason, status: Int32)? {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid else { return nil }
        let status = info._sifields._sigchld.si_status
        return info.si_code == Int32(CLD_EXITED) ? (.exit, status) : (.uncaughtSignal, status)
    }

    /// Whether `process` has ended, by Foundation's word or the kernel's.
    public static func hasEnded(_ process: Process) -> Bool {
        !process.isRunning || peek(process.processIdentifier) != nil
    }

    /// How `process` ended: Foundation's answer once it has one, else the kernel's; nil while it runs.
    public static func outcome(of process: Process) -> (reason: Process.TerminationReason, status: Int32)? {
        if !process.isRunning { return (process.terminationReason, process.terminationStatus) }
        return peek(process.processIdentifier)
    }

    /// Blocks until `process` has ended (in place of `waitUntilExit`, which can wait forever),
    /// at most `limit`; returns whether it ended.
    @discardableResult
    public static func wait(for process: Process, atMost limit: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + limit.scaledForTests
        while !hasEnded(process) {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}
