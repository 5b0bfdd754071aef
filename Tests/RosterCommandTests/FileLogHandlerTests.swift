import Foundation
import Logging
import Testing
@testable import roster

@Suite("The log file: appended line by line, private, and a clear reason when it cannot be opened")
struct FileLogHandlerTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("lines go to the end of what the file holds, one line each, escaped; a new file is 0600")
    func appends() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("logs/roster.log").path
        do {
            let sink = try FileLogHandler.Sink(path: path)
            let logger = Logger(label: "test") { FileLogHandler(label: $0, sink: sink, logLevel: .info) }
            logger.info("first")
            logger.info("ünïcödé and a\nbreak")
            logger.debug("below the level")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        do {
            let again = try FileLogHandler.Sink(path: path)
            again.write("third\n")
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3, "the second sink appended: \(lines)")
        #expect(lines[0].hasSuffix("INFO [test] first"))
        #expect(lines[1].hasSuffix("INFO [test] ünïcödé and a\\nbreak"))
        #expect(lines[2] == "third")
    }

    @Test("a log file that cannot be opened throws the system's reason")
    func unwritable() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder where the file should be: open(2) refuses it whoever runs the test.
        let path = folder.appendingPathComponent("roster.log").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect {
            _ = try FileLogHandler.Sink(path: path)
        } throws: { error in
            error.localizedDescription == "Is a directory"
        }
    }
}
