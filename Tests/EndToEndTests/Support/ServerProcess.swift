import Foundation
import RosterKit
import RosterKitTestSupport
import Logging

/// A real `roster-server` on a temporary database and a free port, for one test.
final class ServerProcess {
    let url: URL
    let token: String
    let directory: URL
    private let process: Process

    init(seed: Int = 0, extraArguments: [String] = []) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        token = "e2e-\(UUID().uuidString)"
        process = Process()
        process.executableURL = try BuiltProducts.url(of: "roster-server")
        process.arguments = ["--port", "0", "--database", directory.appendingPathComponent("users.sqlite").path,
                             "--token", token, "--seed", String(seed)] + extraArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()

        // The server prints "listening on http://HOST:PORT" once, before it serves.
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
            process.terminate()
            throw EndToEndError("roster-server did not say where it listens; it printed: \(String(decoding: buffer, as: UTF8.self))")
        }
        url = found
        // Keep draining stdout so the server never blocks on a full pipe.
        handle.readabilityHandler = { $0.availableData.isEmpty ? ($0.readabilityHandler = nil) : () }
    }

    /// A repository on this server, for checking what the app did.
    var repository: RosterAPIDirectory {
        RosterAPIDirectory(client: APIClient(
            baseURL: url, token: token, transport: TestTransport.shared, retryPolicy: .never,
            logger: Logger(label: "e2e.client") { _ in SwiftLogNoOpLogHandler() }))
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
