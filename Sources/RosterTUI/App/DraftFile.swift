import Foundation
import Logging
import RosterApp
import RosterKit

/// The unsaved draft on disk: JSON in the state directory, readable by its owner only (it
/// holds personal data), written when a signal stopped the app with a changed form.
struct DraftFile: Sendable {
    let path: String

    func read(logger: Logger) -> UnsavedDraft? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try WireFormat.makeDecoder().decode(UnsavedDraft.self, from: data)
        } catch {
            logger.error("the draft in \(path) cannot be read, left alone: \(error)")
            return nil
        }
    }

    func write(_ draft: UnsavedDraft, logger: Logger) {
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = try WireFormat.makeEncoder().encode(draft)
            guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            logger.notice("kept the unsaved draft of \(draft.label) in \(path)")
        } catch {
            logger.error("could not keep the unsaved draft in \(path): \(error)")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
