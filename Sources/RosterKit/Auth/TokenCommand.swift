import Foundation
import Subprocess

/// Runs a `tokenCommand` (or `passwordCommand`) and returns the first line of its standard output.
///
/// The command runs under `/bin/sh -c` with the token going only to a pipe: it never appears on
/// a command line (where `ps` would show it), in a log or in an error message. What the
/// command wrote to standard error is kept for the error message (its last line, short), since
/// that is where a helper says why it failed.
///
/// Started through swift-subprocess (without its Foundation trait): its pipes are close-on-exec,
/// the child starts with no signal blocked, the exit is the shell's own, and once the shell has
/// exited what it wrote is read without waiting for end of file, which a process it left behind
/// holding the pipe (a credential helper's agent) would put off for as long as it lives.
enum TokenCommand {
    static let timeout: Duration = .seconds(30)
    /// What is kept of each stream at most; a command printing more fails with a clear error.
    static let byteLimit = 1 << 20

    static func run(_ command: String) async throws(APIError) -> String {
        let outcome: (status: Int32, stdout: [UInt8], stderr: [UInt8])?
        do {
            outcome = try await withThrowingTaskGroup(of: (status: Int32, stdout: [UInt8], stderr: [UInt8])?.self) { group in
                group.addTask {
                    let result = try await Subprocess.run(
                        .path("/bin/sh"), arguments: ["-c", command], input: .none,
                        output: .bytes(limit: byteLimit), error: .bytes(limit: byteLimit))
                    let status: Int32 = switch result.terminationStatus {
                    case .exited(let code): Int32(code)
                    case .signaled(let signal): 128 + Int32(signal)
                    }
                    return (status, result.standardOutput, result.standardError)
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                // The first to end; cancelling the other kills the command (SIGKILL: it may
                // have inherited a signal mask that blocks SIGTERM) and reaps it.
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
            }
        } catch let error as SubprocessError where error.code == .outputLimitExceeded {
            throw .tokenUnavailable("tokenCommand printed more than \(byteLimit / 1024) KiB; a token is one short line.")
        } catch {
            // The library's words: they name /bin/sh at most, never the command.
            throw .tokenUnavailable("tokenCommand could not be run: \(error)")
        }
        guard let outcome else {
            throw .tokenUnavailable("tokenCommand did not finish within \(timeout.components.seconds) seconds.")
        }
        guard outcome.status == 0 else {
            throw .tokenUnavailable("tokenCommand exited with status \(outcome.status)\(Self.reason(outcome.stderr))")
        }
        let token = String(decoding: outcome.stdout, as: UTF8.self)
            .split(whereSeparator: \.isNewline).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty else {
            throw .tokenUnavailable("tokenCommand printed no token on its standard output.")
        }
        return token
    }

    /// ": <the last line of standard error>", short, or "." when there was none.
    private static func reason(_ stderr: [UInt8]) -> String {
        let lines = String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let last = lines.last?.trimmingCharacters(in: .whitespaces), !last.isEmpty else { return "." }
        let short = last.count > 200 ? String(last.prefix(200)) + "…" : last
        return ": \(short)"
    }
}
