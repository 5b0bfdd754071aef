import Logging
import NIOConcurrencyHelpers

/// A log handler that keeps every message, so tests can check what would reach a log file.
public final class LogRecorder: Sendable {
    public struct Entry: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]

        /// The message and metadata as one line, as a file handler would write it.
        public var line: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let storage = NIOLockedValueBox<[Entry]>([])

    public init() {}

    public var entries: [Entry] { storage.withLockedValue { $0 } }
    public var text: String { entries.map(\.line).joined(separator: "\n") }

    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in RecordingLogHandler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ entry: Entry) {
        storage.withLockedValue { $0.append(entry) }
    }
}

struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        recorder.append(LogRecorder.Entry(
            level: event.level, message: event.message.description,
            metadata: merged.mapValues { "\($0)" }))
    }
}
