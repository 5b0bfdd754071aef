import Foundation

/// Where an export is written as it goes: a `.part` file beside the destination, renamed to
/// it once the last page is in. A cancelled or failed export removes the `.part` file, so the
/// destination never holds half a list (and an older file there stays until the new one is
/// complete).
public final class CSVFileSink {
    public let destination: String
    public var partialPath: String { destination + ".part" }
    private var handle: FileHandle?
    /// Bytes written so far.
    public private(set) var byteCount = 0

    /// Creates the `.part` file (mode 0600: it holds personal data), replacing a stale one.
    public init(destination: String) throws(CSVFileError) {
        self.destination = destination
        let partial = destination + ".part"
        let directory = (destination as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            throw CSVFileError("The folder \(directory) does not exist.")
        }
        try? FileManager.default.removeItem(atPath: partial)
        guard FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: partial)
        else { throw CSVFileError("Cannot write \(partial).") }
        self.handle = handle
    }

    public func write(_ text: String) throws(CSVFileError) {
        guard let handle else { throw CSVFileError("The export file is already closed.") }
        let data = Data(text.utf8)
        do { try handle.write(contentsOf: data) } catch { throw CSVFileError("Cannot write \(partialPath): \(error.localizedDescription)") }
        byteCount += data.count
    }

    /// Closes the file and puts it at the destination (replacing what was there).
    public func finish() throws(CSVFileError) {
        guard let handle else { return }
        self.handle = nil
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw CSVFileError("Cannot finish \(destination): \(error.localizedDescription)")
        }
        // rename(2) replaces an older file at the destination in one step. Foundation's
        // replaceItemAt fails on Linux ("the file doesn't exist") when one is there.
        guard rename(partialPath, destination) == 0 else {
            throw CSVFileError("Cannot finish \(destination): \(String(cString: strerror(errno)))")
        }
    }

    /// Closes and removes the `.part` file: nothing half-written is left behind.
    public func discard() {
        if let handle { try? handle.close() }
        handle = nil
        try? FileManager.default.removeItem(atPath: partialPath)
    }

    deinit { if handle != nil { discard() } }
}

public struct CSVFileError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
