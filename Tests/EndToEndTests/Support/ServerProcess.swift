import Foundation
import RosterKit
import RosterKitTestSupport
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// A real `roster-server` on a temporary database and a free port, for one test. It can be
/// killed (SIGKILL) and started again on the same database and port, as after a crash.
final class ServerProcess {
    private(set) var url: URL
    let token: String
    let directory: URL
    /// `--database`: the SQLite file in `directory`, unless a PostgreSQL URL was given.
    let database: String
    /// The database, token and seed: the same at every start.
    private let baseArguments: [String]
    private let extraArguments: [String]
    private var process: Process

    init(seed: Int = 0, database: String? = nil, extraArguments: [String] = []) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        token = "e2e-\(UUID().uuidString)"
        self.database = database ?? directory.appendingPathComponent("users.sqlite").path
        baseArguments = ["--database", self.database, "--token", token, "--seed", String(seed)]
        self.extraArguments = extraArguments
        (process, url) = try Self.launch(baseArguments + extraArguments + ["--port", "0"], errors: directory)
    }

    /// Where each start's standard error goes (appended), for a test's message when it fails.
    private static func errorsFile(in directory: URL) -> URL { directory.appendingPathComponent("server-stderr.log") }

    /// Starts the binary and waits for "listening on http://HOST:PORT", printed once before it serves.
    private static func launch(_ arguments: [String], errors directory: URL) throws -> (Process, URL) {
        let process = Process()
        process.executableURL = try BuiltProducts.url(of: "roster-server")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let errors = errorsFile(in: directory)
        if !FileManager.default.fileExists(atPath: errors.path) { _ = FileManager.default.createFile(atPath: errors.path, contents: nil) }
        let errorHandle = try FileHandle(forWritingTo: errors)
        try errorHandle.seekToEnd()
        process.standardError = errorHandle
        try process.run()

        var buffer = Data()
        let handle = output.fileHandleForReading
        var found: URL?
        while found == nil {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let text = String(decoding: buffer, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                found = URL(string: String(line.dropFirst("listening on ".count)))
            }
        }
        guard let found else {
            if process.isRunning { process.terminate() }
            throw EndToEndError("roster-server did not say where it listens; it printed: \(String(decoding: buffer, as: UTF8.self))")
        }
        // Keep draining stdout so the server never blocks on a full pipe.
        handle.readabilityHandler = { $0.availableData.isEmpty ? ($0.readabilityHandler = nil) : () }
        return (process, found)
    }

    /// A repository on this server, for checking what the app did.
    var repository: RosterAPIDirectory {
        RosterAPIDirectory(client: APIClient(
            baseURL: url, token: token, transport: TestTransport.shared, retryPolicy: .never,
            logger: Logger(label: "e2e.client") { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Kills the server with SIGKILL, as a crash would: no answer in flight is finished.
    func kill() {
        guard process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        ChildExit.wait(for: process)
    }

    /// Starts the server again on the same database and port, with `extraArguments` in place of
    /// the first start's (e.g. without `--latency`). The port was just freed by the kill.
    func restart(extraArguments: [String]? = nil) throws {
        kill()
        let arguments = baseArguments + (extraArguments ?? self.extraArguments) + ["--port", String(url.port ?? 0)]
        // The old socket can take a moment to be released on a loaded machine.
        var attempt = 0
        while true {
            do {
                (process, url) = try Self.launch(arguments, errors: directory)
                return
            } catch where attempt < 20 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    var isRunning: Bool { !ChildExit.hasEnded(process) }

    /// How the server ended, or that it runs; with the end of what it wrote to standard error.
    var stateForMessages: String {
        let state = ChildExit.outcome(of: process).map { "exited (\($0.reason == .uncaughtSignal ? "signal" : "status") \($0.status))" }
            ?? "running"
        let errors = (try? String(contentsOf: Self.errorsFile(in: directory), encoding: .utf8)) ?? ""
        return "roster-server \(state);\(Self.crash(in: errors)) the end of its standard error: \(errors.suffix(2_000))"
    }

    /// A crash's own lines from a Swift backtrace (the fatal error, and the crashed thread's
    /// first frames), which the end of a long backtrace leaves out.
    static func crash(in errors: String) -> String {
        let lines = errors.split(separator: "\n", omittingEmptySubsequences: false)
        let fatal = lines.filter { $0.contains("Fatal error") || $0.contains("Program crashed") }
        guard let crashed = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.contains("crashed") }) else {
            return fatal.isEmpty ? "" : " " + fatal.joined(separator: " / ")
        }
        let frames = lines[crashed..<min(lines.count, crashed + 14)]
        return " " + (fatal + frames).joined(separator: "\n") + "\n"
    }

    /// Sends SIGTERM and returns how long the server took to exit, or nil (and SIGKILLs it)
    /// when it had not exited after `limit`.
    func terminate(waitingAtMost limit: Duration) -> Duration? {
        let started = ContinuousClock.now
        process.terminate()
        while !ChildExit.hasEnded(process) {
            guard ContinuousClock.now - started < limit else {
                kill()
                return nil
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return ContinuousClock.now - started
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            if !ChildExit.wait(for: process) { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
