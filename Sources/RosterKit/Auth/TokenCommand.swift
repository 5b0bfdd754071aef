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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice

        let (exited, exit) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exit.yield(process.terminationStatus)
            exit.finish()
        }
        do {
            try process.run()
        } catch {
            throw .tokenUnavailable("tokenCommand could not be started: \(error.localizedDescription)")
        }
        // Read both pipes while the command runs, so a chatty command cannot fill one and stall.
        async let outputBytes = Self.readAll(output.fileHandleForReading)
        async let errorBytes = Self.readAll(errors.fileHandleForReading)

        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                var iterator = exited.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let status else {
            // SIGKILL: the command may have inherited a signal mask that blocks SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            _ = await (outputBytes, errorBytes)
            throw .tokenUnavailable("tokenCommand did not finish within \(timeout.components.seconds) seconds.")
        }
        let (stdout, stderr) = await (outputBytes, errorBytes)
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

    private static func readAll(_ handle: FileHandle) async -> Data {
        await Task.detached { (try? handle.readToEnd()) ?? Data() }.value
    }

    /// ": <the last line of standard error>", short, or "." when there was none.
    private static func reason(_ stderr: Data) -> String {
        let lines = String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let last = lines.last?.trimmingCharacters(in: .whitespaces), !last.isEmpty else { return "." }
        let short = last.count > 200 ? String(last.prefix(200)) + "…" : last
        return ": \(short)"
    }
}
