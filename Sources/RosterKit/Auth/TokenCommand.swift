import Foundation

/// Runs a `tokenCommand` and returns the first line of its standard output.
///
/// The command runs under `/bin/sh -c` with the token going only to a pipe: it never appears on
/// a command line (where `ps` would show it), in a log or in an error message. What the
/// command wrote to standard error is kept for the error message (its last line, short), since
/// that is where a helper says why it failed.
enum TokenCommand {
    static let timeout: Duration = .seconds(30)

    static func run(_ command: String) async throws(APIError) -> String {
        let child = try ShellCommand.start(command)
        let drain = PipeDrain(child.outputs)
        // Read both pipes while the command runs, so a chatty command cannot fill one and stall.
        async let streams = drain.collect()

        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                let status = await child.exitStatus()
                drain.childExited()
                return status
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if first == nil {
                // SIGKILL: the command may have inherited a signal mask that blocks SIGTERM.
                child.kill()
            }
            // The waiting task ends once the killed shell is reaped: no zombie is left.
            await group.waitForAll()
            return first
        }
        guard let status else {
            _ = await streams
            throw .tokenUnavailable("tokenCommand did not finish within \(timeout.components.seconds) seconds.")
        }
        let collected = await streams
        let (stdout, stderr) = (collected[0], collected[1])
        guard status == 0 else {
            throw .tokenUnavailable("tokenCommand exited with status \(status)\(Self.reason(stderr))")
        }
        let token = String(decoding: stdout, as: UTF8.self)
            .split(whereSeparator: \.isNewline).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty else {
            throw .tokenUnavailable("tokenCommand printed no token on its standard output.")
        }
        return token
    }

    /// ": <the last line of standard error>", short, or "." when there was none.
    private static func reason(_ stderr: Data) -> String {
        let lines = String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let last = lines.last?.trimmingCharacters(in: .whitespaces), !last.isEmpty else { return "." }
        let short = last.count > 200 ? String(last.prefix(200)) + "…" : last
        return ": \(short)"
    }
}
