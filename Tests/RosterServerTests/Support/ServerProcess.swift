import Foundation
import NIOConcurrencyHelpers
import RosterKitTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `roster-server` binary, run as a child process, with its output collected.
final class ServerProcess: Sendable {
    let process: Process
    private let output = Output()

    private final class Output: Sendable {
        let text = NIOLockedValueBox<(stdout: String, stderr: String)>(("", ""))
        /// How many of the two pipes reached their end (the process closed them).
        let ended = NIOLockedValueBox(0)
    }

    /// Where `make test` (and `swift build`) put the binary: next to the test bundle.
    static func binaryURL() throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent())
            candidates.append(executable.deletingLastPathComponent().deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let binary = directory.appendingPathComponent("roster-server")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        throw NotBuilt(searched: candidates.map(\.path))
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var searched: [String]
        var description: String { "roster-server is not built (run `swift build` or `make test`); looked in \(searched)" }
    }

    init(arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = try Self.binaryURL()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let output = self.output
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; output.ended.withLockedValue { $0 += 1 }; return }
            output.text.withLockedValue { $0.stdout += String(decoding: data, as: UTF8.self) }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; output.ended.withLockedValue { $0 += 1 }; return }
            output.text.withLockedValue { $0.stderr += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var stdout: String { output.text.withLockedValue { $0.stdout } }
    var stderr: String { output.text.withLockedValue { $0.stderr } }

    /// The URL of the "listening on" line, once it is printed.
    func waitForListening() async throws -> URL {
        let printed = await eventually { self.stdout.contains("listening on http") && self.stdout.hasSuffix("\n") || !self.process.isRunning }
        guard printed, let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
              let url = URL(string: String(line.dropFirst("listening on ".count)))
        else {
            throw StartFailed(stdout: stdout, stderr: stderr)
        }
        return url
    }

    struct StartFailed: Error, CustomStringConvertible {
        var stdout: String, stderr: String
        var description: String { "roster-server did not start.\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end and returns how: its exit status, or the signal that ended it.
    func waitForExit() async -> (reason: Process.TerminationReason, status: Int32) {
        _ = await eventually(within: .seconds(30)) { ChildExit.hasEnded(self.process) }
        // And until both pipes are read to their end: an exit can come before the last of
        // its output is read (once, a refusal's sentence was not there yet).
        _ = await eventually(within: .seconds(5)) { self.output.ended.withLockedValue { $0 } == 2 }
        // Foundation may never hear of the exit (`ChildExit`); the kernel's answer then.
        return ChildExit.outcome(of: process) ?? (.uncaughtSignal, -1)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
