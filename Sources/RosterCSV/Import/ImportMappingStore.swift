import Foundation
import RosterKit

/// The mappings a person made in the import preview, remembered per header set: the next
/// file with the same header line opens mapped the same way. JSON in the state folder, 0600 in
/// a 0700 folder (header texts can name people's data); at most `limit` header sets, the
/// oldest dropped first.
public struct ImportMappingStore: Sendable {
    public let path: String
    public static let limit = 50

    public init(path: String) { self.path = path }

    /// Per header key, the field of each column ("" for ignored), and when it was kept.
    struct Entry: Codable {
        var fields: [String]
        var saved: Date
    }

    /// The remembered mapping for these headers, if one was kept, on a directory with
    /// `attributes` (a column kept on an attribute it lacks is ignored).
    public func mapping(for headers: [String], attributes: [UserAttribute] = []) -> ImportMapping? {
        let key = ImportMapping(headers: headers).headerKey
        guard let entry = read()[key], entry.fields.count == headers.count else { return nil }
        return ImportMapping(headers: headers, fields: entry.fields.map { ImportField(rawValue: $0) }, attributes: attributes)
    }

    /// Keeps `mapping` for its header set.
    public func remember(_ mapping: ImportMapping) throws(CSVFileError) {
        var entries = read()
        entries[mapping.headerKey] = Entry(fields: mapping.fields.map { $0?.rawValue ?? "" }, saved: Date())
        while entries.count > Self.limit, let oldest = entries.min(by: { $0.value.saved < $1.value.saved }) {
            entries[oldest.key] = nil
        }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try PrivateFileMode.replace(path, with: try encoder.encode(entries))
        } catch {
            throw CSVFileError("Cannot keep the import mapping in \(path): \(error.localizedDescription)")
        }
    }

    private func read() -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }
}
