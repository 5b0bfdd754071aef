import Foundation
import Logging
import RosterKit
import NIOConcurrencyHelpers

/// Writes log lines to a file: the terminal belongs to the UI. One line per event, with
/// time, level, label, message and metadata; line breaks and controls in messages are escaped
/// so a log line can be trusted to be one line.
struct FileLogHandler: LogHandler {
    final class Sink: Sendable {
        private let handle: NIOLockedValueBox<FileHandle?>

        init(path: String) throws {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            self.handle = NIOLockedValueBox(handle)
        }

        func write(_ line: String) {
            handle.withLockedValue { handle in
                try? handle?.write(contentsOf: Data(line.utf8))
            }
        }
    }

    let label: String
    let sink: Sink
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // RosterKit's formatter, not ISO8601DateFormatter: that one loads ICU, megabytes of
        // memory for a log line's timestamp.
        var line = ISO8601Timestamp.format(Date())
        line += " \(event.level.rawValue.uppercased()) [\(label)] \(Self.escape(event.message.description))"
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if !merged.isEmpty {
            line += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.escape("\($0.value)"))" }.joined(separator: " ")
        }
        sink.write(line + "\n")
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x00...0x1F, 0x7F...0x9F: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
