import Foundation
import Logging
import RosterKit
import NIOConcurrencyHelpers

/// Writes log lines to a file: the terminal belongs to the UI. One line per event, with
/// time, level, label, message and metadata; line breaks and controls in messages are escaped
/// so a log line can be trusted to be one line.
struct FileLogHandler: LogHandler {
    final class Sink: Sendable {
        /// Appended to with write(2): one call a line, no Data or FileHandle between (their
        /// generic paths cost a start 0.4 ms of the runtime's conformance look-ups).
        private let descriptor: NIOLockedValueBox<Int32>

        init(path: String) throws {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw OpenFailure(reason: String(cString: strerror(errno))) }
            self.descriptor = NIOLockedValueBox(descriptor)
        }

        deinit { close(descriptor.withLockedValue { $0 }) }

        struct OpenFailure: LocalizedError {
            var reason: String
            var errorDescription: String? { reason }
        }

        func write(_ line: String) {
            var line = line
            descriptor.withLockedValue { descriptor in
                line.withUTF8 { bytes in
                    var rest = UnsafeRawBufferPointer(bytes)
                    while !rest.isEmpty {
                        let written = Foundation.write(descriptor, rest.baseAddress, rest.count)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { return }
                        rest = UnsafeRawBufferPointer(rebasing: rest[written...])
                    }
                }
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
